import * as vscode from "vscode";

/** The left side of a review: the file as it was, read-only (a content provider has no save). */
export const ORIGINAL_SCHEME = "kiln-original";
/** The right side: Kiln's proposal, in memory, editable by the user before they approve. */
export const PROPOSED_SCHEME = "kiln-proposed";

/** Texts of the originals under review, by the URI's query (one key per review). */
export class OriginalDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  set(key: string, text: string): void {
    this.texts.set(key, text);
  }

  delete(key: string): void {
    this.texts.delete(key);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? "";
  }
}

/**
 * An in-memory file system for the proposals: a real writable document, so the user can change the
 * proposal in the diff editor (and save it there) before approving, and nothing touches the disk.
 */
export class ProposalFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  put(uri: vscode.Uri, text: string): void {
    const existed = this.files.has(uri.toString());
    this.files.set(uri.toString(), { data: new TextEncoder().encode(text), mtime: Date.now() });
    this.changed.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  remove(uri: vscode.Uri): void {
    if (this.files.delete(uri.toString())) this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable {
    // Changes are fired for every file anyway; there is nothing to start watching.
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.toString());
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: file.mtime, mtime: file.mtime, size: file.data.byteLength };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.toString());
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    // Only proposals Kiln made can be saved to: a stray path is not a place to keep files.
    if (!this.files.has(uri.toString())) throw vscode.FileSystemError.NoPermissions(uri);
    this.files.set(uri.toString(), { data: content, mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    this.remove(uri);
  }

  rename(oldUri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(oldUri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
