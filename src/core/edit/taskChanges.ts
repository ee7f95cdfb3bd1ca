import type { FileSystem } from "../ports/fileSystem";
import { encodeText, UTF8 } from "../files/textEncoding";

export interface ChangedFile {
  /** Absolute path. */
  path: string;
  /** As the user sees it: relative to the workspace when inside it. */
  display: string;
  /** The file before the task's first change to it; undefined: the task created it. */
  before: string | undefined;
  /** What the task did to it overall, as of its latest edit. */
  kind: "created" | "modified" | "deleted";
  /** The encoding `before` was read in: a revert writes the very bytes the file had. */
  encoding: string;
}

/**
 * Every file a task changed, with its content from before the task's first change: the end-of-task
 * review lists them with a diff against that state, and reverts a file to it. A subtask records
 * into its parent's, so the review covers the whole task.
 */
export class TaskChanges {
  private readonly files = new Map<string, ChangedFile>();

  /** After an edit was saved; only the first edit of a path keeps its `before`. */
  record(path: string, display: string, before: string | undefined, after: string | null, encoding = UTF8): void {
    const first = this.files.get(path);
    const original = first ? first.before : before;
    const kind = after === null ? "deleted" : original === undefined ? "created" : "modified";
    // Created and then deleted by the same task: nothing to review or revert.
    if (kind === "deleted" && original === undefined) this.files.delete(path);
    else this.files.set(path, { path, display, before: original, kind, encoding: first?.encoding ?? encoding });
  }

  list(): ChangedFile[] {
    return [...this.files.values()];
  }

  get(path: string): ChangedFile | undefined {
    return this.files.get(path);
  }

  /** Puts the file back as it was before the task (deletes it if the task created it). */
  async revert(path: string, fs: FileSystem): Promise<ChangedFile | undefined> {
    const change = this.files.get(path);
    if (!change) return undefined;
    if (change.before === undefined) {
      if (await fs.stat(path)) await fs.delete(path);
    } else {
      await fs.writeFile(path, encodeText(change.before, change.encoding));
    }
    this.files.delete(path);
    return change;
  }
}
