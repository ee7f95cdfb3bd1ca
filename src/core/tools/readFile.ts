import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { fingerprint } from "../files/guardedWrite";
import { z } from "zod";
import { defineTool, toolError, type ImageData, type ToolContext } from "./defineTool";
import { classify, extractDocxText, extractPdfText, formatSize, imageTypeByExtension, MAX_IMAGE_BYTES } from "./fileFormats";
import { READ_FILE_MAX_LINES } from "../../shared/limits";
import { p } from "./params";
import { lineRange, linkTo, said, view } from "./present";
import { resolvePath } from "./paths";
import { asArray, parseStructured } from "./structured";
import type { EncodingHint } from "../ports/fileSystem";
import { decodeBytes, isUtf8, label } from "../files/textEncoding";

export const MAX_FILES = 5;
const MAX_BYTES = 20 * 1024 * 1024;

interface FileRequest {
  path: string;
  start?: number;
  end?: number;
}

const rangeSchema = z
  .string()
  .regex(/^\s*\d+\s*-\s*\d+\s*$/, "a line range is written start-end, e.g. 10-40")
  .transform((r) => r.split("-").map((n) => Number(n.trim())) as [number, number]);

const fileSchema = z.object({ path: z.string().min(1), line_range: z.union([rangeSchema, z.array(rangeSchema)]).optional() });

/** `<args><file><path>…</path><line_range>1-20</line_range></file>…</args>` or the same as JSON. */
function parseFiles(text: string): { ok: true; files: FileRequest[] } | { ok: false; error: string } {
  const parsed = parseStructured(text);
  if (!parsed.ok) return { ok: false, error: `<args> is ${parsed.error}` };
  const raw = parsed.value as { file?: unknown } | unknown[] | undefined;
  const list = Array.isArray(raw) ? raw : asArray((raw as { file?: unknown } | undefined)?.file);
  if (list.length === 0) return { ok: false, error: "<args> names no <file>." };
  if (list.length > MAX_FILES) return { ok: false, error: `<args> names ${list.length} files; read at most ${MAX_FILES} per call.` };
  const files: FileRequest[] = [];
  for (const entry of list) {
    const result = fileSchema.safeParse(entry);
    if (!result.success) return { ok: false, error: `a <file> in <args> is not valid: ${result.error.issues.map((i) => i.message).join("; ")}` };
    const ranges =
      result.data.line_range === undefined ? [undefined] : Array.isArray(result.data.line_range[0]) ? (result.data.line_range as [number, number][]) : [result.data.line_range as [number, number]];
    for (const range of ranges) files.push({ path: result.data.path, start: range?.[0], end: range?.[1] });
  }
  return { ok: true, files };
}

interface ReadResult {
  text: string;
  images?: ImageData[];
}

const fileError = (display: string, message: string): ReadResult => ({ text: `<file path="${display}">Error: ${message}</file>` });

/**
 * A text file in its own encoding; one whose encoding cannot be told is shown as UTF-8 with a note,
 * so the model knows why the edit tools will refuse it and what the odd characters are.
 */
function readText(display: string, bytes: Uint8Array, request: FileRequest, maxLines: number, hint: EncodingHint | undefined): ReadResult {
  const decoded = decodeBytes(bytes, hint);
  if (decoded.ok) return numbered(display, decoded.text, request, maxLines, { encoding: isUtf8(decoded.encoding) ? undefined : label(decoded.encoding) });
  const note = `[Encoding unknown: ${decoded.reason}. Shown as UTF-8, with \uFFFD for bytes that are not; the edit tools will not change this file.]`;
  return numbered(display, new TextDecoder().decode(bytes), request, maxLines, { note });
}

/** Numbered lines of `text`, the requested range, capped at `maxLines` with a note how to read on. */
function numbered(display: string, text: string, request: FileRequest, maxLines: number, options: { kind?: string; encoding?: string; note?: string } = {}): ReadResult {
  const kind = options.kind ?? "";
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const total = lines.length;
  const start = Math.max(1, request.start ?? 1);
  if (start > total && total > 0) return fileError(display, `the ${kind ? "extracted text" : "file"} has ${total} lines; line ${start} does not exist.`);
  const wantedEnd = request.end ?? total;
  if (wantedEnd < start) return fileError(display, `end line ${wantedEnd} is before start line ${start}.`);
  const end = Math.min(total, wantedEnd, start + maxLines - 1);
  const width = String(end).length;
  const body = lines
    .slice(start - 1, end)
    .map((line, k) => `${String(start + k).padStart(width)} | ${line}`)
    .join("\n");
  const note = end < Math.min(total, wantedEnd) ? `\n[Showing lines ${start}-${end} of ${total}. Read on with start_line ${end + 1}.]` : "";
  const kindAttr = kind ? ` kind="${kind}"` : "";
  const encodingAttr = options.encoding ? ` encoding="${options.encoding}"` : "";
  const header = options.note ? `${options.note}\n` : "";
  return { text: `<file path="${display}"${kindAttr}${encodingAttr} lines="${start}-${end}" total="${total}">\n${header}${body}${note}\n</file>` };
}

async function extracted(display: string, kind: "pdf" | "docx", bytes: Uint8Array, request: FileRequest, maxLines: number): Promise<ReadResult> {
  let text: string;
  try {
    text = kind === "pdf" ? await extractPdfText(bytes) : await extractDocxText(bytes);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return fileError(display, `could not extract text from this ${kind.toUpperCase()} (${reason}); it may be damaged or encrypted.`);
  }
  // A scanned PDF has pages but no text layer: say so rather than show empty page headers.
  if (text.replace(/--- page \d+ ---/g, "").trim() === "") return fileError(display, `this ${kind.toUpperCase()} holds no extractable text (scanned pages or images only).`);
  return numbered(display, text, request, maxLines, { kind });
}

async function readOne(request: FileRequest, context: ToolContext): Promise<ReadResult> {
  const target = resolvePath(context.cwd, request.path);
  const display = target.display;
  const stat = await context.fs.stat(target.absolute);
  if (!stat) return fileError(display, "no such file.");
  if (stat.type === "directory") return fileError(display, "this is a folder; use list_files to see what is in it.");
  if (stat.type !== "file") return fileError(display, "not a regular file (a device, socket or FIFO); it cannot be read.");
  if (stat.size > MAX_BYTES) return fileError(display, `the file is ${formatSize(stat.size)}, over the ${formatSize(MAX_BYTES)} limit for reading.`);
  // Refused before reading: no need to load a large image only to turn it away.
  if (imageTypeByExtension(target.absolute) && stat.size > MAX_IMAGE_BYTES) return tooBigImage(display, stat.size);
  const bytes = await context.fs.readFile(target.absolute);
  const kind = classify(target.absolute, bytes);
  const maxLines = context.readFileMaxLines ?? READ_FILE_MAX_LINES.default;
  switch (kind.kind) {
    case "text":
      // What the model now knows of the file: write_to_file will not replace it if it changes after this.
      context.seen?.set(target.absolute, fingerprint(bytes));
      return readText(display, bytes, request, maxLines, await context.fs.encodingHint?.(target.absolute));
    case "pdf":
    case "docx":
      return extracted(display, kind.kind, bytes, request, maxLines);
    case "image":
      if (bytes.length > MAX_IMAGE_BYTES) return tooBigImage(display, bytes.length);
      return {
        text: `<file path="${display}">Image (${kind.mediaType}, ${formatSize(bytes.length)}), attached for you to view.</file>`,
        images: [{ mediaType: kind.mediaType, data: Buffer.from(bytes).toString("base64") }],
      };
    case "binary":
      return { text: `<file path="${display}">Binary file (${formatSize(bytes.length)}): ${kind.type}; its content is not shown.</file>` };
  }
}

function tooBigImage(display: string, size: number): ReadResult {
  return fileError(display, `this image is ${formatSize(size)}, over the ${formatSize(MAX_IMAGE_BYTES)} limit for images; ask the user for a smaller copy or a description.`);
}

/** The files `args` names as far as it has arrived (XML or JSON, maybe cut off), each with the lines asked for. */
function filesNamed(text: string): { path: string; note?: string }[] {
  const json = /^\s*[[{]/.test(text);
  const parsed = json ? parseStructured(text) : undefined;
  let files: { path: string; ranges: string[] }[];
  if (parsed?.ok) {
    const value = parsed.value as { file?: unknown } | unknown[] | null;
    const list: unknown[] = Array.isArray(value) ? value : asArray(value?.file);
    files = list.map((entry) => {
      const file = (typeof entry === "object" && entry !== null ? entry : {}) as { path?: unknown; line_range?: unknown };
      return { path: typeof file.path === "string" ? file.path : "", ranges: asArray(file.line_range).map((r) => (typeof r === "string" ? r : JSON.stringify(r))) };
    });
  } else if (json) {
    files = [...text.matchAll(/"path"\s*:\s*"((?:[^"\\]|\\.)*)/g)].map((m) => ({ path: m[1]!, ranges: [] }));
  } else {
    files = [...text.matchAll(/<file>([\s\S]*?)(?:<\/file>|$)/g)].map((m) => ({
      path: /<path>([\s\S]*?)(?:<\/path>|$)/.exec(m[1]!)?.[1]?.trim() ?? "",
      ranges: [...m[1]!.matchAll(/<line_range>([\s\S]*?)(?:<\/line_range>|$)/g)].map((r) => r[1]!.trim()),
    }));
  }
  return files.map(({ path, ranges }) => (ranges.length > 0 ? { path, note: l10n.t("lines {0}", ranges.join(", ")) } : { path }));
}

export const readFileTool = defineTool({
  name: "read_file",
  group: "read",
  description: `Read files with line numbers. Either one file (path, optional start_line/end_line) or up to ${MAX_FILES} files with <args>. A long file is shown in part, with a note saying where to read on with a later start_line. PDF and DOCX files are read as their extracted text (line numbers count in that text); images (png, jpg, gif, webp, up to ${MAX_IMAGE_BYTES / (1024 * 1024)} MB) are attached for you to view; other binary files are only described.`,
  params: {
    path: p.string("Path of the file, relative to the workspace", { optional: true }),
    start_line: p.integer("First line to read (1-based)", { optional: true, min: 1 }),
    end_line: p.integer("Last line to read (inclusive)", { optional: true, min: 1 }),
    args: p.string(`Several files: <file><path>a.ts</path><line_range>1-40</line_range></file>… (at most ${MAX_FILES})`, { optional: true, raw: true }),
  },
  approval(args) {
    const parsed = args.args ? parseFiles(args.args) : undefined;
    const paths = parsed?.ok ? [...new Set(parsed.files.map((f) => f.path))] : args.path ? [args.path] : [];
    return { summary: paths.length > 0 ? l10n.t("Read {0}", paths.join(", ")) : l10n.t("Read files"), paths };
  },
  present(args, status) {
    const files = args.args === undefined ? undefined : filesNamed(args.args);
    const target = files && args.path === undefined ? (files.length === 1 ? l10n.t("1 file") : l10n.t("{0} files", files.length)) : `${args.path ?? ""}${lineRange(args.start_line, args.end_line)}`;
    const one = files === undefined || args.path !== undefined;
    return view(
      {
        icon: "eye",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to read {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is reading {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln read {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to read {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not read {0}", TARGET_SLOT),
        }),
        target,
        link: one ? linkTo(args.path, args.start_line) : undefined,
      },
      files && { kind: "files", files },
    );
  },
  async execute(args, context) {
    let requests: FileRequest[];
    if (args.args !== undefined && args.args.trim() !== "") {
      const parsed = parseFiles(args.args);
      if (!parsed.ok) return toolError("invalid_args", parsed.error);
      requests = parsed.files;
    } else if (args.path) {
      requests = [{ path: args.path, start: args.start_line, end: args.end_line }];
    } else {
      return toolError("invalid_args", "give <path> (one file) or <args> (several files).");
    }
    const parts: string[] = [];
    const images: ImageData[] = [];
    for (const request of requests) {
      const read = await readOne(request, context);
      parts.push(read.text);
      images.push(...(read.images ?? []));
    }
    return { kind: "result", text: parts.join("\n"), ...(images.length > 0 ? { images } : {}) };
  },
});
