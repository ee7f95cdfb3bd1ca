import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { createInterface } from "node:readline/promises";
import type { McpTrustStore } from "../../core/mcp/trust";

/** The file: `{"version": 1, "approvals": {"<workspace path>": {"<server>": "<sha256>"}}}`. */
type Approvals = Record<string, Record<string, string>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The CLI's approvals of project MCP servers, kept in the user's Kiln folder (never in the
 * workspace, which a repository controls). Only the owner may write it: a file others can change
 * could approve servers for them, so such a file is ignored, and writes are owner-only and atomic.
 */
export class FileMcpTrustStore implements McpTrustStore {
  private approvals: Approvals = {};

  private constructor(
    readonly path: string,
    private readonly report: (line: string) => void,
  ) {}

  /** Reads the file once; a missing, unreadable or unsafe file is no approvals (every server asks). */
  static async load(path: string, report: (line: string) => void): Promise<FileMcpTrustStore> {
    const store = new FileMcpTrustStore(path, report);
    store.approvals = await store.read();
    return store;
  }

  approvedFingerprint(workspaceKey: string, server: string): string | undefined {
    return this.approvals[workspaceKey]?.[server];
  }

  async approve(workspaceKey: string, server: string, fingerprint: string): Promise<void> {
    await this.change((all) => ({ ...all, [workspaceKey]: { ...all[workspaceKey], [server]: fingerprint } }));
  }

  async revoke(workspaceKey: string, server: string): Promise<void> {
    await this.change((all) => {
      const { [server]: _gone, ...rest } = all[workspaceKey] ?? {};
      return { ...all, [workspaceKey]: rest };
    });
  }

  /** Read again before writing, so another run's approvals made meanwhile are kept. */
  private async change(edit: (all: Approvals) => Approvals): Promise<void> {
    this.approvals = edit(await this.read());
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify({ version: 1, approvals: this.approvals }, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      // The mode given at creation is narrowed by the umask only, but say it outright.
      await chmod(temp, 0o600);
      await rename(temp, this.path);
    } catch (err) {
      await rm(temp, { force: true });
      throw new Error(`${this.path} could not be written (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }

  private async read(): Promise<Approvals> {
    let text: string;
    try {
      const info = await stat(this.path);
      // Group- or world-writable, or someone else's: its approvals could be another user's doing.
      if (process.platform !== "win32" && ((info.mode & 0o022) !== 0 || (process.getuid && info.uid !== process.getuid()))) {
        this.report(`MCP: ${this.path} can be changed by other users, so its approvals are ignored (chmod 600 it to use them)`);
        return {};
      }
      text = await readFile(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
      this.report(`MCP: ${this.path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); every project server asks again`);
      return {};
    }
    try {
      const data: unknown = JSON.parse(text);
      if (!isRecord(data) || !isRecord(data.approvals)) throw new Error('it has no "approvals" object');
      const out: Approvals = {};
      for (const [workspace, servers] of Object.entries(data.approvals)) {
        if (!isRecord(servers)) continue;
        out[workspace] = Object.fromEntries(Object.entries(servers).filter((e): e is [string, string] => typeof e[1] === "string"));
      }
      return out;
    } catch (err) {
      this.report(`MCP: ${this.path} is damaged (${err instanceof Error ? err.message : String(err)}); every project server asks again`);
      return {};
    }
  }
}

/**
 * A yes-or-no question on the terminal (stderr, so stdout stays the task's). Anything but y or yes
 * is no, as is the end of input. Ctrl+C (read as a key, since the terminal is in raw mode) answers
 * "stop" and is passed on to the process's SIGINT handlers, so the run stops as on Ctrl+C elsewhere.
 */
export async function askYesNo(question: string): Promise<"yes" | "no" | "stop"> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const ended = new AbortController();
  let interrupted = false;
  rl.once("SIGINT", () => {
    interrupted = true;
    ended.abort();
  });
  rl.once("close", () => ended.abort());
  try {
    const answer = await rl.question(question, { signal: ended.signal });
    return /^(y|yes)$/i.test(answer.trim()) ? "yes" : "no";
  } catch (err) {
    if (!ended.signal.aborted) throw err;
    if (!interrupted) return "no";
    // Synchronously, so the run's Ctrl+C handler has marked it stopped before the servers start.
    process.emit("SIGINT", "SIGINT");
    return "stop";
  } finally {
    rl.close();
  }
}
