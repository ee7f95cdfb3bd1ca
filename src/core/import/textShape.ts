import type { FileSystem } from "../ports/fileSystem";

/**
 * A config file the import adds to keeps its look: a byte order mark, CRLF line ends and a missing
 * final newline stay as they were. Edits are made on the text with LF ends and no mark, then the
 * file's own shape is put back.
 */
export interface TextShape {
  bom: boolean;
  eol: "\n" | "\r\n";
  finalNewline: boolean;
}

/** A file that does not exist yet gets the usual shape. */
export const NEW_FILE_SHAPE: TextShape = { bom: false, eol: "\n", finalNewline: true };

export interface ShapedText {
  /** LF line ends, no byte order mark. */
  text: string;
  shape: TextShape;
}

export function splitShape(raw: string): ShapedText {
  const bom = raw.startsWith("\uFEFF");
  const body = bom ? raw.slice(1) : raw;
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  // An empty file has no last line to end: a file written into it gets the usual final newline.
  const finalNewline = body === "" || body.endsWith("\n");
  return { text: body.replace(/\r\n/g, "\n"), shape: { bom, eol, finalNewline } };
}

export function applyShape(text: string, shape: TextShape): string {
  let body = text.replace(/\r\n/g, "\n");
  if (shape.finalNewline && !body.endsWith("\n")) body += "\n";
  if (!shape.finalNewline) body = body.replace(/\n+$/, "");
  if (shape.eol === "\r\n") body = body.replace(/\n/g, "\r\n");
  return shape.bom ? `\uFEFF${body}` : body;
}

/** The file's text and shape; undefined when there is no file. */
export async function readShaped(files: FileSystem, path: string): Promise<ShapedText | undefined> {
  const stat = await files.stat(path);
  if (!stat) return undefined;
  if (stat.type !== "file") throw new Error(`${path} is not a file`);
  // ignoreBOM keeps the mark in the text (the decoder would drop it), so splitShape sees it.
  return splitShape(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await files.readFile(path)));
}

/** Text of a source file read for its content only: the mark is dropped, line ends left to the parser. */
export function withoutBom(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}
