import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import * as vscode from "vscode";
import type { EncodingHint, EntryType, FileStat, FileSystem } from "../../core/ports/fileSystem";
import { openDocument } from "./review/diffReview";

function typeOf(type: vscode.FileType): EntryType {
  // Symbolic links come as a bit flag on top of what they point to.
  if (type & vscode.FileType.Directory) return "directory";
  if (type & vscode.FileType.File) return "file";
  return "other";
}

function isNotFound(err: unknown): boolean {
  return err instanceof vscode.FileSystemError && (err.code === "FileNotFound" || err.code === "EntryNotFound" || err.code === "FileNotADirectory");
}

/**
 * The FileSystem port on `workspace.fs`, for folders on disk: what a tool reads is what the editor
 * shows (an open file's unsaved text, its encoding), and a write reaches open editors.
 */
export class VsCodeFileSystem implements FileSystem {
  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.file(path));
      return { type: typeOf(stat.type), size: stat.size };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    const uri = vscode.Uri.file(path);
    // Unsaved changes in an editor are what the user sees: tools read them, and edits start from
    // them (the review then saves them with the edit) instead of overwriting them.
    const open = openDocument(uri);
    // As the editor would save them: in its encoding (encodingHint names it), with its BOM.
    if (open?.isDirty) return vscode.workspace.encode(open.getText(), { encoding: open.encoding });
    return vscode.workspace.fs.readFile(uri);
  }

  /**
   * An editor holding the file reads it in its encoding (the user may have picked it); otherwise
   * files.encoding, where the user set it for this file (the default, UTF-8, is what the bytes are
   * checked for first anyway).
   */
  async encodingHint(path: string): Promise<EncodingHint | undefined> {
    const uri = vscode.Uri.file(path);
    const open = openDocument(uri);
    if (open) return { encoding: open.encoding, source: "editor" };
    const setting = vscode.workspace.getConfiguration("files", uri).get<unknown>("encoding");
    return typeof setting === "string" && setting !== "" ? { encoding: setting, source: "setting" } : undefined;
  }

  async readDirectory(path: string): Promise<{ name: string; type: EntryType }[]> {
    const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.file(path));
    return entries.map(([name, type]) => ({ name, type: typeOf(type) }));
  }

  async writeFile(path: string, content: Uint8Array | string): Promise<void> {
    const target = vscode.Uri.file(path);
    const folder = target.with({ path: posix.dirname(target.path) });
    await vscode.workspace.fs.createDirectory(folder);
    // Beside the target, then renamed over it: the file holds the old content or all of the new.
    const temp = target.with({ path: posix.join(folder.path, `.${posix.basename(target.path)}.kiln-${randomBytes(6).toString("hex")}.tmp`) });
    try {
      await vscode.workspace.fs.writeFile(temp, typeof content === "string" ? new TextEncoder().encode(content) : content);
      await vscode.workspace.fs.rename(temp, target, { overwrite: true });
    } catch (err) {
      // The temp file may never have been created; the write's own error is the one to report.
      await vscode.workspace.fs.delete(temp).then(undefined, (cleanup: unknown) => void cleanup);
      throw err;
    }
  }

  async delete(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await vscode.workspace.fs.delete(vscode.Uri.file(path), { recursive: options.recursive ?? false, useTrash: false });
  }
}
