import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { EditPreview } from "../../../core/ports/editReview";
import { ORIGINAL_SCHEME, PROPOSED_SCHEME, type OriginalDocuments, type ProposalFileSystem } from "./proposalDocuments";

/** One key per review: the diff's two sides carry it in their URIs. */
export function reviewUris(path: string, key: string): { left: vscode.Uri; right: vscode.Uri } {
  return { left: vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path, query: key }), right: vscode.Uri.from({ scheme: PROPOSED_SCHEME, path, query: key }) };
}

export function newReviewKey(): string {
  return randomBytes(6).toString("hex");
}

/** Enough to follow the stream smoothly without re-rendering the document per token. */
const RENDER_MS = 80;

interface Stream {
  key: string;
  right: vscode.Uri;
  original: string | undefined;
  content: string;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Writes shown in the diff editor while the model streams them: the right side fills with the
 * content so far, the rest of the original after it faded, the line being written marked, and the
 * view following it. The edit's review then takes the same diff over.
 */
let decorations: { faded: vscode.TextEditorDecorationType; active: vscode.TextEditorDecorationType } | undefined;

/** One pair for the whole window: reviews come and go with tasks, the decoration types stay. */
function decorationTypes() {
  return (decorations ??= {
    faded: vscode.window.createTextEditorDecorationType({ opacity: "0.45" }),
    active: vscode.window.createTextEditorDecorationType({ isWholeLine: true, backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground") }),
  });
}

export class StreamingDiffs {
  private readonly streams = new Map<string, Stream>();
  /** Paths whose review took over in this turn: a late update must not reopen them. */
  private readonly taken = new Set<string>();

  constructor(
    private readonly originals: OriginalDocuments,
    private readonly proposals: ProposalFileSystem,
    private readonly open: (left: vscode.Uri, right: vscode.Uri, display: string, isNew: boolean) => Promise<void>,
    private readonly close: (right: vscode.Uri) => Promise<void>,
  ) {}

  update(preview: EditPreview): void {
    if (this.taken.has(preview.path)) return;
    let stream = this.streams.get(preview.path);
    if (!stream) {
      const key = newReviewKey();
      const { left, right } = reviewUris(preview.path, key);
      this.originals.set(key, preview.original ?? "");
      this.proposals.put(right, preview.original ?? "");
      stream = { key, right, original: preview.original, content: "", timer: undefined };
      this.streams.set(preview.path, stream);
      void this.open(left, right, preview.display, preview.original === undefined);
    }
    stream.content = preview.content;
    const current = stream;
    current.timer ??= setTimeout(() => {
      current.timer = undefined;
      this.render(current);
    }, RENDER_MS);
  }

  /** The review of this path takes the streamed diff over (its key), if there is one. */
  take(path: string): string | undefined {
    this.taken.add(path);
    const stream = this.streams.get(path);
    if (!stream) return undefined;
    this.streams.delete(path);
    clearTimeout(stream.timer);
    this.decorate(stream.right, undefined);
    return stream.key;
  }

  /** The turn ended: diffs no review took over close. */
  async end(): Promise<void> {
    this.taken.clear();
    const left = [...this.streams.values()];
    this.streams.clear();
    for (const stream of left) {
      clearTimeout(stream.timer);
      await this.close(stream.right);
      this.originals.delete(stream.key);
      this.proposals.remove(stream.right);
    }
  }

  private render(stream: Stream): void {
    const written = stream.content.split(/\r?\n/);
    const rest = (stream.original ?? "").split(/\r?\n/).slice(written.length);
    this.proposals.put(stream.right, [...written, ...rest].join("\n"));
    this.decorate(stream.right, { line: written.length - 1, fadedFrom: rest.length > 0 ? written.length : undefined });
  }

  private decorate(right: vscode.Uri, at: { line: number; fadedFrom: number | undefined } | undefined): void {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === right.toString());
    if (!editor) return;
    const { active, faded } = decorationTypes();
    if (!at) {
      editor.setDecorations(active, []);
      editor.setDecorations(faded, []);
      return;
    }
    const line = new vscode.Range(at.line, 0, at.line, 0);
    editor.setDecorations(active, [line]);
    editor.setDecorations(faded, at.fadedFrom === undefined ? [] : [new vscode.Range(at.fadedFrom, 0, Number.MAX_SAFE_INTEGER, 0)]);
    editor.revealRange(line, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
