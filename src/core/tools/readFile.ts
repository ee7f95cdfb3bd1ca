import { z } from "zod";
import { defineTool, type ToolContext } from "./defineTool";
import { p } from "./params";
import { resolvePath } from "./paths";
import { asArray, parseStructured } from "./structured";

export const MAX_LINES = 500;
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
    const ranges = result.data.line_range === undefined ? [undefined] : Array.isArray(result.data.line_range[0]) ? (result.data.line_range as [number, number][]) : [result.data.line_range as [number, number]];
    for (const range of ranges) files.push({ path: result.data.path, start: range?.[0], end: range?.[1] });
  }
  return { ok: true, files };
}

function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

async function readOne(request: FileRequest, context: ToolContext): Promise<string> {
  const target = resolvePath(context.cwd, request.path);
  const stat = await context.fs.stat(target.absolute);
  if (!stat) return `<file path="${target.display}">Error: no such file.</file>`;
  if (stat.type === "directory") return `<file path="${target.display}">Error: this is a folder; use list_files to see what is in it.</file>`;
  if (stat.type !== "file") return `<file path="${target.display}">Error: not a regular file (a device, socket or FIFO); it cannot be read.</file>`;
  if (stat.size > MAX_BYTES) return `<file path="${target.display}">Error: the file is ${stat.size} bytes, over the ${MAX_BYTES}-byte limit for reading.</file>`;
  const bytes = await context.fs.readFile(target.absolute);
  if (isBinary(bytes)) return `<file path="${target.display}">Binary file (${bytes.length} bytes); its content is not shown.</file>`;
  const text = new TextDecoder().decode(bytes);
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const total = lines.length;
  const start = Math.max(1, request.start ?? 1);
  if (start > total && total > 0) return `<file path="${target.display}">Error: the file has ${total} lines; line ${start} does not exist.</file>`;
  const wantedEnd = request.end ?? total;
  if (wantedEnd < start) return `<file path="${target.display}">Error: end line ${wantedEnd} is before start line ${start}.</file>`;
  const end = Math.min(total, wantedEnd, start + MAX_LINES - 1);
  const width = String(end).length;
  const body = lines
    .slice(start - 1, end)
    .map((line, k) => `${String(start + k).padStart(width)} | ${line}`)
    .join("\n");
  const note = end < Math.min(total, wantedEnd) ? `\n[Showing lines ${start}-${end} of ${total}. Read on with start_line ${end + 1}.]` : "";
  return `<file path="${target.display}" lines="${start}-${end}" total="${total}">\n${body}${note}\n</file>`;
}

export const readFileTool = defineTool({
  name: "read_file",
  group: "read",
  description: `Read files with line numbers. Either one file (path, optional start_line/end_line) or up to ${MAX_FILES} files with <args>. At most ${MAX_LINES} lines are shown per file; read on with a later start_line.`,
  params: {
    path: p.string("Path of the file, relative to the workspace", { optional: true }),
    start_line: p.integer("First line to read (1-based)", { optional: true, min: 1 }),
    end_line: p.integer("Last line to read (inclusive)", { optional: true, min: 1 }),
    args: p.string(`Several files: <file><path>a.ts</path><line_range>1-40</line_range></file>… (at most ${MAX_FILES})`, { optional: true, raw: true }),
  },
  approval(args) {
    const parsed = args.args ? parseFiles(args.args) : undefined;
    const paths = parsed?.ok ? [...new Set(parsed.files.map((f) => f.path))] : args.path ? [args.path] : [];
    return { summary: `Read ${paths.join(", ") || "files"}`, paths };
  },
  async execute(args, context) {
    let requests: FileRequest[];
    if (args.args !== undefined && args.args.trim() !== "") {
      const parsed = parseFiles(args.args);
      if (!parsed.ok) return { kind: "result", text: `Error: ${parsed.error}` };
      requests = parsed.files;
    } else if (args.path) {
      requests = [{ path: args.path, start: args.start_line, end: args.end_line }];
    } else {
      return { kind: "result", text: "Error: give <path> (one file) or <args> (several files)." };
    }
    const parts: string[] = [];
    for (const request of requests) parts.push(await readOne(request, context));
    return { kind: "result", text: parts.join("\n") };
  },
});
