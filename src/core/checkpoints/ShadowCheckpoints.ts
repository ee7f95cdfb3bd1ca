import * as l10n from "@vscode/l10n";
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_EXCLUDES, findNestedRepository } from "./excludes";
import { git, GitTimeout } from "./git";

/** A file that changed since a checkpoint. */
export interface CheckpointChange {
  path: string;
  change: "added" | "modified" | "deleted";
}

export interface CheckpointOptions {
  /** Where shadow repositories live (the extension's global storage); never inside the workspace. */
  storage: string;
  workspace: string;
  /** Files larger than this are left out of checkpoints (and named in the note). */
  maxFileBytes?: number;
  /** A checkpoint that takes longer is skipped with a note rather than holding up the task. */
  timeBudgetMs?: number;
}

export type CheckpointResult =
  | { kind: "saved"; commit: string; skippedLarge: string[] }
  /** Nothing changed since the task's last checkpoint: that one stands for this point too. */
  | { kind: "unchanged"; commit: string }
  | { kind: "skipped"; reason: string };

export interface RestoreResult {
  /** Files created since the checkpoint, now removed. */
  removed: string[];
  /** Files changed or deleted since, now as they were. */
  restored: string[];
  /** The checkpoint of the files as they were just before the restore, which undoes it. */
  before: string;
}

const DEFAULT_MAX_FILE = 5 * 1024 * 1024;
const DEFAULT_BUDGET_MS = 15_000;

/**
 * Checkpoints of a workspace in a shadow git repository (in global storage, one per workspace):
 * the user's own .git is never read or written. Each task's checkpoints are a chain of commits
 * under refs/kiln/<task>, built with plumbing so no branch or HEAD of any kind moves.
 */
export class ShadowCheckpoints {
  readonly gitDir: string;
  private ready: Promise<string | undefined> | undefined;
  private readonly maxFileBytes: number;
  private readonly budgetMs: number;

  constructor(private readonly options: CheckpointOptions) {
    const id = createHash("sha256").update(resolve(options.workspace)).digest("hex").slice(0, 16);
    this.gitDir = join(options.storage, "checkpoints", id);
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE;
    this.budgetMs = options.timeBudgetMs ?? DEFAULT_BUDGET_MS;
  }

  /** Why checkpoints are off for this workspace, or undefined when they work. */
  disabledReason(): Promise<string | undefined> {
    this.ready ??= this.init();
    return this.ready;
  }

  /** Records the workspace as it is now, as the task's next checkpoint. */
  save(taskId: string, message: string): Promise<CheckpointResult> {
    return exclusive(this.gitDir, () => this.saveNow(taskId, message));
  }

  private async saveNow(taskId: string, message: string): Promise<CheckpointResult> {
    const off = await this.disabledReason();
    if (off) return { kind: "skipped", reason: off };
    const deadline = Date.now() + this.budgetMs;
    try {
      const skippedLarge = await this.stage(deadline);
      const tree = (await this.run(["write-tree"], deadline)).trim();
      const parent = await this.head(taskId);
      if (parent && (await this.run(["rev-parse", `${parent}^{tree}`], deadline)).trim() === tree) return { kind: "unchanged", commit: parent };
      const commit = (await this.run(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], deadline)).trim();
      await this.run(["update-ref", refOf(taskId), commit], deadline);
      return { kind: "saved", commit, skippedLarge };
    } catch (err) {
      return { kind: "skipped", reason: await this.failure(err) };
    }
  }

  /** The task's checkpoints, newest first. */
  async list(taskId: string): Promise<{ commit: string; message: string; time: number }[]> {
    if (await this.disabledReason()) return [];
    if (!(await this.head(taskId))) return [];
    const out = await this.run(["log", "--format=%H%x00%ct%x00%s", refOf(taskId)], Date.now() + this.budgetMs);
    return out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [commit, time, message] = line.split("\0");
        return { commit: commit!, time: Number(time) * 1000, message: message ?? "" };
      });
  }

  /**
   * Puts the files back as they were at `commit`, byte for byte: changed and deleted files are
   * restored and files created since are removed. Files checkpoints never held (ignored, too
   * large, build folders) are left alone. The state before the restore is saved first.
   */
  restore(taskId: string, commit: string): Promise<RestoreResult> {
    return exclusive(this.gitDir, () => this.restoreNow(taskId, commit));
  }

  private async restoreNow(taskId: string, commit: string): Promise<RestoreResult> {
    const off = await this.disabledReason();
    if (off) throw new Error(`Checkpoints are off: ${off}`);
    const target = await this.verify(commit);
    const before = await this.saveNow(taskId, "Before restoring a checkpoint");
    if (before.kind === "skipped") throw new Error(l10n.t("The files were not changed: saving their current state first failed ({0}).", before.reason));
    const deadline = Date.now() + Math.max(this.budgetMs, 60_000);
    const names = (args: string[]) => this.run(args, deadline).then((out) => out.split("\0").filter(Boolean));
    const added = await names(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=A", target, before.commit]);
    const restored = await names(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=DM", target, before.commit]);
    for (const path of added) await fs.rm(join(this.options.workspace, path), { force: true });
    if (restored.length > 0) await this.run(["checkout", target, "--", ...restored.map((p) => `:(literal)${p}`)], deadline);
    return { removed: added, restored, before: before.commit };
  }

  /** The task whose checkpoints hold `commit` (for a restore named by commit alone, as the CLI's). */
  async taskOf(commit: string): Promise<string | undefined> {
    if (await this.disabledReason()) return undefined;
    const target = await this.verify(commit);
    const refs = await this.run(["for-each-ref", "--format=%(refname)", "--contains", target, "refs/kiln/"], Date.now() + this.budgetMs);
    return refs.split("\n").find(Boolean)?.slice("refs/kiln/".length);
  }

  /** What changed in the workspace since `commit`, as a unified diff. */
  diffSince(commit: string): Promise<string> {
    return exclusive(this.gitDir, () => this.diffNow(commit));
  }

  private async diffNow(commit: string): Promise<string> {
    const off = await this.disabledReason();
    if (off) throw new Error(`Checkpoints are off: ${off}`);
    const target = await this.verify(commit);
    const deadline = Date.now() + this.budgetMs;
    await this.stage(deadline);
    return this.run(["diff", "--cached", "--no-color", "--no-ext-diff", target], deadline);
  }

  /** The files that differ between `commit` and the workspace now, and how. */
  changedSince(commit: string): Promise<CheckpointChange[]> {
    return exclusive(this.gitDir, async () => {
      const off = await this.disabledReason();
      if (off) throw new Error(`Checkpoints are off: ${off}`);
      const target = await this.verify(commit);
      const deadline = Date.now() + this.budgetMs;
      await this.stage(deadline);
      const fields = (await this.run(["diff", "--cached", "--name-status", "--no-renames", "-z", target], deadline)).split("\0");
      const changes: CheckpointChange[] = [];
      for (let i = 0; i + 1 < fields.length; i += 2) {
        const status = fields[i]!;
        changes.push({ path: fields[i + 1]!, change: status === "A" ? "added" : status === "D" ? "deleted" : "modified" });
      }
      return changes;
    });
  }

  /** A file's text at `commit` (`path` relative to the workspace, with /); undefined where it did not exist then. */
  async fileAt(commit: string, path: string): Promise<string | undefined> {
    const target = await this.verify(commit);
    return this.run(["show", `${target}:${path.replace(/^\.?\//, "")}`], Date.now() + this.budgetMs).catch(() => undefined);
  }

  /** Removes the checkpoints of tasks other than `keep`, oldest first, until the store is under `maxBytes`. */
  cleanup(maxBytes: number, keep: readonly string[] = []): Promise<string[]> {
    return exclusive(this.gitDir, () => this.cleanupNow(maxBytes, keep));
  }

  private async cleanupNow(maxBytes: number, keep: readonly string[]): Promise<string[]> {
    if (await this.disabledReason()) return [];
    const deadline = Date.now() + 120_000;
    const refs = (await this.run(["for-each-ref", "--sort=committerdate", "--format=%(refname)", "refs/kiln/"], deadline)).split("\n").filter(Boolean);
    const dropped: string[] = [];
    for (const ref of refs) {
      if ((await sizeOf(this.gitDir)) <= maxBytes) break;
      const task = ref.slice("refs/kiln/".length);
      if (keep.includes(task)) continue;
      await this.run(["update-ref", "-d", ref], deadline);
      await this.run(["reflog", "expire", "--expire=now", "--all"], deadline);
      await this.run(["gc", "--prune=now", "--quiet"], deadline);
      dropped.push(task);
    }
    return dropped;
  }

  private async init(): Promise<string | undefined> {
    const workspace = resolve(this.options.workspace);
    if (workspace === resolve(homedir())) return "the workspace is your home folder; open a project folder to get checkpoints";
    const nested = await findNestedRepository(workspace);
    if (nested) return `the workspace holds another git repository (${nested}), which checkpoints cannot restore`;
    try {
      await fs.mkdir(this.gitDir, { recursive: true });
      // Set up once; not held to the per-checkpoint budget.
      const deadline = Date.now() + 30_000;
      if (!(await exists(join(this.gitDir, "HEAD")))) await this.run(["init", "--quiet"], deadline);
      await this.run(["config", "core.untrackedCache", "true"], deadline);
      await fs.mkdir(join(this.gitDir, "info"), { recursive: true });
      // The workspace's .gitattributes could convert line endings or run filters; a restore must be byte-exact.
      await fs.writeFile(join(this.gitDir, "info", "attributes"), "* -text -filter -ident -working-tree-encoding\n");
      return undefined;
    } catch (err) {
      return `the shadow repository could not be set up (${err instanceof Error ? err.message : String(err)})`;
    }
  }

  /** Stages the workspace (honouring .gitignore and the default excludes), leaving out large files. */
  private async stage(deadline: number): Promise<string[]> {
    const excludeFile = join(this.gitDir, "info", "exclude");
    // The last checkpoint's large files are excluded: list without them, or a file that was large
    // would drop out of the list, be added in full, and a restore would then delete it.
    await fs.writeFile(excludeFile, DEFAULT_EXCLUDES.join("\n") + "\n");
    const large = await this.largeFiles(deadline);
    await fs.writeFile(excludeFile, [...DEFAULT_EXCLUDES, ...large.map((p) => `/${escapeGlob(p)}`)].join("\n") + "\n");
    await this.run(["add", "--all", "--ignore-errors", "--", "."], deadline).catch((err: unknown) => {
      if (err instanceof GitTimeout) throw err;
      // --ignore-errors still fails on an unreadable file; what could be added was added.
    });
    if (large.length > 0) await this.run(["rm", "--cached", "--quiet", "--ignore-unmatch", "--", ...large.map((p) => `:(literal)${p}`)], deadline);
    return large;
  }

  private async largeFiles(deadline: number): Promise<string[]> {
    // Only files new or changed since the index was last written can have grown past the cap.
    const out = await this.run(["ls-files", "-z", "--others", "--modified", "--exclude-standard"], deadline);
    const paths = [...new Set(out.split("\0").filter(Boolean))];
    const sizes = await Promise.all(
      paths.map((path) =>
        fs.stat(join(this.options.workspace, path)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
    return paths.filter((_, i) => sizes[i]! > this.maxFileBytes);
  }

  private async head(taskId: string): Promise<string | undefined> {
    try {
      return (await this.run(["rev-parse", "--verify", "--quiet", refOf(taskId)], Date.now() + this.budgetMs)).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  private async verify(commit: string): Promise<string> {
    if (!/^[0-9a-f]{7,64}$/.test(commit)) throw new Error(`"${commit}" is not a checkpoint id.`);
    try {
      return (await this.run(["rev-parse", "--verify", `${commit}^{commit}`], Date.now() + this.budgetMs)).trim();
    } catch {
      throw new Error(`There is no checkpoint ${commit}.`);
    }
  }

  private run(args: string[], deadline: number): Promise<string> {
    const left = deadline - Date.now();
    if (left <= 0) return Promise.reject(new GitTimeout("the time budget was used up"));
    return git(args, { gitDir: this.gitDir, workTree: this.options.workspace, timeoutMs: left });
  }

  private async failure(err: unknown): Promise<string> {
    if (err instanceof GitTimeout) {
      // A killed git leaves its lock behind, which would fail every later checkpoint.
      await fs.rm(join(this.gitDir, "index.lock"), { force: true });
      return `the checkpoint took longer than ${Math.round(this.budgetMs / 1000)} s and was skipped`;
    }
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * One operation at a time on a shadow repository in this process: two saves would share its index,
 * and a cleanup's gc could prune the objects a save has written but not yet committed.
 */
const queues = new Map<string, Promise<unknown>>();

function exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
  const result = (queues.get(key) ?? Promise.resolve()).then(work);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return result;
}

function refOf(taskId: string): string {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(taskId)) throw new Error(`"${taskId}" is not a task id.`);
  return `refs/kiln/${taskId}`;
}

function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`);
}

async function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(
    () => true,
    () => false,
  );
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await fs.stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
