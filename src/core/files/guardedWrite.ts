import { createHash } from "node:crypto";
import type { FileSystem } from "../ports/fileSystem";
import { withFileLock } from "./fileLock";

/**
 * An edit is written only over the content it was made from. Between the moment a tool read the file
 * and the write, another task (a second `kiln run`, a subtask) or the user in the editor may have
 * changed it; writing then would silently drop their change while both sides report success.
 */

/** What a file's bytes were when an edit was made from them; null: there was no file. */
export type Fingerprint = string | null;

export function fingerprint(bytes: Uint8Array | undefined): Fingerprint {
  return bytes === undefined ? null : createHash("sha256").update(bytes).digest("hex");
}

/** content: the remade edit; original: the file's text it was made on (what a revert goes back to). */
export type Remade = { ok: true; content: string; original: string } | { ok: false; reason: string };

export interface WriteGuard {
  /** The fingerprint of the bytes the edit was made from. */
  expected: Fingerprint;
  /**
   * The same edit made again on the file as it is now (apply_diff finds its blocks in the new
   * content), or why it no longer applies. Absent: a changed file refuses the edit (write_to_file's
   * whole content would undo the other change).
   */
  remake?(current: Uint8Array): Remade;
}

export type GuardedWrite =
  /** content: what was written (the remade edit when the file had changed); remadeFrom: the text it was remade on. */
  { written: true; content: string | null; remadeFrom?: string } | { written: false; reason: string };

async function readIfAny(fs: FileSystem, path: string): Promise<Uint8Array | undefined> {
  const stat = await fs.stat(path);
  return stat?.type === "file" ? fs.readFile(path) : undefined;
}

/**
 * Under the file's lock: reads it again, and writes `content` when it is unchanged since the edit was
 * made. A changed file gets the remade edit, unless the user shaped the content themselves in the
 * review (their text cannot be remade) or the tool has no way to remake it; then nothing is written.
 */
export function writeGuarded(
  fs: FileSystem,
  edit: { path: string; display: string; guard?: WriteGuard; userEdited?: boolean },
  content: string | null,
  write: (content: string | null) => Promise<void>,
): Promise<GuardedWrite> {
  return withFileLock(edit.path, async () => {
    const guard = edit.guard;
    if (!guard) {
      await write(content);
      return { written: true, content };
    }
    const current = await readIfAny(fs, edit.path);
    if (fingerprint(current) === guard.expected) {
      await write(content);
      return { written: true, content };
    }
    const changed = `${edit.display} changed after your edit was made from it (the user or another task ${current === undefined ? "deleted it" : guard.expected === null ? "created it" : "edited it"} meanwhile)`;
    if (current === undefined || content === null || !guard.remake)
      return { written: false, reason: `${changed}; nothing was written, so their change is kept. Read the file again and redo the edit on what it holds now.` };
    if (edit.userEdited)
      return { written: false, reason: `${changed}, and the proposal was changed by hand in the review; nothing was written, so neither change is lost. Read the file again and redo the edit.` };
    const remade = guard.remake(current);
    if (!remade.ok)
      return { written: false, reason: `${changed}, and the edit no longer applies to it: ${remade.reason.replace(/\.+\s*$/, "")}. Nothing was written; read the file again and redo the edit.` };
    await write(remade.content);
    return { written: true, content: remade.content, remadeFrom: remade.original };
  });
}
