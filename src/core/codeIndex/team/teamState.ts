import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { WalkedFile } from "../walk";

/** The file under the workspace's index folder (indexDatabase.ts indexDirFor) that keeps this record. */
export const TEAM_STATE_FILE = "team.json";

const StateSchema = z.object({
  version: z.literal(1),
  /** path → [size, mtime, sha256 of the bytes ("" for a file not to be indexed)]. */
  files: z.record(z.string(), z.tuple([z.number(), z.number(), z.string()])),
  /** scope → the paths this workspace had on the server at its last refresh. */
  sent: z.record(z.string(), z.array(z.string())),
});

/**
 * What this machine knows about its side of a team index (teamIndex.ts), kept between runs: each
 * file's hash by its size and time (so a refresh reads only files changed since, as the workspace's
 * own index does), and which files it had on the server per scope (so a file deleted here is taken
 * off the server, and a teammate's file it never had is not). A cache: lost or unreadable, it is
 * made again by reading the files once.
 */
export class TeamState {
  private files = new Map<string, [number, number, string]>();
  private sentByScope = new Map<string, Set<string>>();
  private loaded = false;
  private dirty = false;

  constructor(private readonly dir: string | undefined) {}

  async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    if (!this.dir) return;
    const text = await readFile(join(this.dir, TEAM_STATE_FILE), "utf8").catch(() => undefined);
    if (text === undefined) return;
    let parsed: z.infer<typeof StateSchema>;
    try {
      parsed = StateSchema.parse(JSON.parse(text));
    } catch {
      // Damaged or of another version: every file is read once more, nothing worse.
      return;
    }
    this.files = new Map(Object.entries(parsed.files));
    this.sentByScope = new Map(Object.entries(parsed.sent).map(([scope, paths]) => [scope, new Set(paths)]));
  }

  /** The file's hash as last read at this size and time, or computed now (undefined: not to be indexed). */
  async hashOf(file: WalkedFile, compute: () => Promise<string | undefined>): Promise<string | undefined> {
    const known = this.files.get(file.path);
    if (known && known[0] === file.size && known[1] === file.mtimeMs) return known[2] || undefined;
    const hash = await compute();
    this.remember(file, hash);
    return hash;
  }

  remember(file: WalkedFile, hash: string | undefined): void {
    this.files.set(file.path, [file.size, file.mtimeMs, hash ?? ""]);
    this.dirty = true;
  }

  sent(scope: string): string[] {
    return [...(this.sentByScope.get(scope) ?? [])];
  }

  wasSent(scope: string, path: string): boolean {
    return this.sentByScope.get(scope)?.has(path) ?? false;
  }

  markSent(scope: string, path: string): void {
    let paths = this.sentByScope.get(scope);
    if (!paths) this.sentByScope.set(scope, (paths = new Set()));
    if (paths.has(path)) return;
    paths.add(path);
    this.dirty = true;
  }

  unmarkSent(scope: string, path: string): void {
    if (this.sentByScope.get(scope)?.delete(path)) this.dirty = true;
  }

  /** Forgets what was sent to a scope (its index was taken off the server). */
  async forget(scope: string): Promise<void> {
    await this.load();
    if (this.sentByScope.delete(scope)) this.dirty = true;
    await this.save();
  }

  /** Writes the record where it changed: to a file beside it, then renamed over it, so a crash leaves the old one whole. */
  async save(): Promise<void> {
    if (!this.dir || !this.dirty) return;
    const data: z.infer<typeof StateSchema> = {
      version: 1,
      files: Object.fromEntries(this.files),
      sent: Object.fromEntries([...this.sentByScope].map(([scope, paths]) => [scope, [...paths].sort()])),
    };
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, TEAM_STATE_FILE);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(data)}\n`);
    await rename(temporary, file);
    this.dirty = false;
  }
}
