import type { EditReview } from "../ports/editReview";
import type { FileSystem } from "../ports/fileSystem";
import type { ToolUseBlock } from "../toolcall/types";
import { checkMode, type Mode } from "../modes/modes";
import { resolvePath } from "../tools/paths";
import type { IgnoreRules } from "../workspace/ignore";
import { decodeText } from "../tools/fileEdit";

interface Target {
  path: string;
  display: string;
  /** The file before the write, read once; null: it may not be shown (see `allowed`). */
  original: Promise<string | undefined | null>;
}

/**
 * write_to_file calls shown in the review while their content streams. Only where the call could
 * go through: inside the workspace, not hidden by .kilocodeignore, allowed by the mode (a preview
 * reads the file, so it is held to a read's rules).
 */
export class StreamPreviews {
  private readonly targets = new Map<string, Target>();

  constructor(
    private readonly review: EditReview | undefined,
    private readonly fs: FileSystem,
    private readonly cwd: string,
    private readonly ignore: IgnoreRules,
  ) {}

  /** `mode`: the task's mode now; a path it may not write is never previewed. */
  update(block: ToolUseBlock, mode: Mode): void {
    if (!this.review?.preview || block.name !== "write_to_file" || !block.partial) return;
    const { path, content } = block.params;
    if (typeof path !== "string" || typeof content !== "string" || path.trim() === "") return;
    const target = this.targetOf(path.trim(), mode);
    void target.original.then((original) => {
      if (original !== null) this.review?.preview?.({ path: target.path, display: target.display, original, content });
    });
  }

  async end(): Promise<void> {
    this.targets.clear();
    await this.review?.endPreviews?.();
  }

  private targetOf(path: string, mode: Mode): Target {
    const known = this.targets.get(path);
    if (known) return known;
    const resolved = resolvePath(this.cwd, path);
    const allowed = !resolved.outsideWorkspace && !this.ignore.isHiddenFromAgent(resolved.absolute) && checkMode(mode, "edit", "write_to_file", [resolved.display]).ok;
    const target: Target = { path: resolved.absolute, display: resolved.display, original: allowed ? this.readOriginal(resolved.absolute) : Promise.resolve(null) };
    this.targets.set(path, target);
    return target;
  }

  private async readOriginal(path: string): Promise<string | undefined | null> {
    try {
      const stat = await this.fs.stat(path);
      if (!stat) return undefined;
      if (stat.type !== "file") return null;
      // A file the write would refuse (binary, encoding unknown) has no preview either.
      const read = decodeText(path, await this.fs.readFile(path), await this.fs.encodingHint?.(path));
      return read.ok ? read.file.text : null;
    } catch {
      // Unreadable now: the call itself will say why; there is just no preview.
      return null;
    }
  }
}
