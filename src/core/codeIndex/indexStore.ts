import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { SavedFullTextIndex } from "./fullText";
import type { ChunkKind } from "./types";

/**
 * Where a workspace's codebase index is kept between runs, so that opening a folder again (or
 * updating Kiln) costs a walk of the folder and the files changed since, not a new index: the
 * complaint users of other agents make most about theirs.
 *
 * One folder per workspace under a parent (the extension's global storage, or ~/.kilocode/kiln/index
 * for the CLI), named by a hash of the workspace's path; in it one snapshot file, written whole to a
 * temp file and renamed over the old one, so a crash mid-write leaves the previous snapshot. The
 * snapshot is plain JSON (the store chosen by measurement: docs/architecture.md, "Codebase index").
 */

export const SNAPSHOT_FILE = "index.json";
/** Version of the snapshot's shape; another version is indexed again rather than misread. */
export const SNAPSHOT_VERSION = 1;

const CHUNK_KINDS: ReadonlySet<string> = new Set<ChunkKind>(["function", "class", "method", "type", "block", "section", "lines"]);

/** A chunk as saved: [id, startLine, endLine, kind, symbols, hash of its text]. */
export type SavedChunk = [number, number, number, ChunkKind, string[], string];
/** A file as saved: [path, size, mtimeMs, hash of its bytes, its chunks]. */
export type SavedFile = [string, number, number, string, SavedChunk[]];

export interface IndexSnapshot {
  version: number;
  /** The workspace's absolute path: a snapshot found under another workspace's folder is not used. */
  root: string;
  savedAt: number;
  nextId: number;
  files: SavedFile[];
  fullText: SavedFullTextIndex;
}

/** The folder under `parent` that keeps the index of the workspace at `root`. */
export function indexDirFor(parent: string, root: string): string {
  return join(parent, createHash("sha256").update(resolve(root)).digest("hex").slice(0, 16));
}

/** Writes the snapshot atomically; returns its size in bytes. */
export async function writeSnapshot(dir: string, snapshot: IndexSnapshot): Promise<number> {
  await mkdir(dir, { recursive: true });
  const text = JSON.stringify(snapshot);
  const target = join(dir, SNAPSHOT_FILE);
  const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return Buffer.byteLength(text);
}

/** The saved snapshot as parsed JSON, unchecked (see checkSnapshot), or undefined where none was saved. */
export async function readSnapshot(dir: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(join(dir, SNAPSHOT_FILE), "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`the saved index ${join(dir, SNAPSHOT_FILE)} is not JSON (cut short or damaged)`);
  }
}

/** Size on disk and time of the saved snapshot, or undefined where none is saved. */
export async function snapshotInfo(dir: string): Promise<{ bytes: number; savedAt: number } | undefined> {
  const info = await stat(join(dir, SNAPSHOT_FILE)).catch(() => undefined);
  return info?.isFile() ? { bytes: info.size, savedAt: info.mtimeMs } : undefined;
}

/** Removes the workspace's saved index (and any temp file a crash left). */
export async function deleteStore(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/**
 * The snapshot, checked to be one this Kiln wrote for this workspace; otherwise an Error saying what
 * is wrong (the caller indexes again). The full-text part is checked by FullTextIndex.fromJSON.
 */
export function checkSnapshot(data: unknown, root: string): IndexSnapshot {
  const fail = (why: string): never => {
    throw new Error(`the saved index cannot be used: ${why}`);
  };
  if (typeof data !== "object" || data === null || Array.isArray(data)) return fail("it is not an object");
  const saved = data as Partial<Record<keyof IndexSnapshot, unknown>>;
  if (saved.version !== SNAPSHOT_VERSION) return fail(`it is version ${String(saved.version)}, this Kiln reads version ${SNAPSHOT_VERSION}`);
  if (saved.root !== resolve(root)) return fail(`it was made for ${JSON.stringify(saved.root)}, not ${JSON.stringify(resolve(root))}`);
  if (!isWhole(saved.savedAt) || !isWhole(saved.nextId)) return fail(`"savedAt" or "nextId" is not a whole number`);
  if (!Array.isArray(saved.files)) return fail(`"files" is not a list`);
  const ids = new Set<number>();
  const paths = new Set<string>();
  saved.files.forEach((file: unknown, i) => {
    if (!Array.isArray(file) || file.length !== 5) return fail(`files[${i}] is not [path, size, mtime, hash, chunks]`);
    const [path, size, mtimeMs, hash, chunks] = file as unknown[];
    if (typeof path !== "string" || path === "" || path.startsWith("/") || path.split("/").includes("..")) return fail(`files[${i}] has no workspace-relative path`);
    if (paths.has(path)) return fail(`${path} is there twice`);
    paths.add(path);
    if (!isWhole(size) || typeof mtimeMs !== "number" || !Number.isFinite(mtimeMs) || !isHash(hash)) return fail(`${path}'s size, time or hash is not valid`);
    if (!Array.isArray(chunks)) return fail(`${path}'s chunks are not a list`);
    for (const chunk of chunks as unknown[]) {
      if (!Array.isArray(chunk) || chunk.length !== 6) return fail(`a chunk of ${path} is not [id, start, end, kind, symbols, hash]`);
      const [id, start, end, kind, symbols, chunkHash] = chunk as unknown[];
      if (!isWhole(id) || id >= (saved.nextId as number) || ids.has(id)) return fail(`a chunk of ${path} has the id ${String(id)}, used twice or past nextId`);
      ids.add(id);
      if (!isWhole(start) || !isWhole(end) || start < 1 || end < start) return fail(`a chunk of ${path} has the lines ${String(start)}-${String(end)}`);
      if (typeof kind !== "string" || !CHUNK_KINDS.has(kind)) return fail(`a chunk of ${path} is of the unknown kind ${JSON.stringify(kind)}`);
      if (!Array.isArray(symbols) || !symbols.every((s) => typeof s === "string") || !isHash(chunkHash)) return fail(`a chunk of ${path} has bad symbols or hash`);
    }
  });
  if (typeof saved.fullText !== "object" || saved.fullText === null) return fail(`"fullText" is missing`);
  return saved as IndexSnapshot;
}

function isWhole(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isHash(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}
