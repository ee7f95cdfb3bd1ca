import type { CodeLocation, LanguageServices, SymbolPosition, TextRange } from "../ports/languageServices";
import { decodeBytes } from "../files/textEncoding";
import { ignoreRulesOf } from "../workspace/ignore";
import { toolError, type ToolContext, type ToolOutcome } from "./defineTool";
import { classify } from "./fileFormats";
import { resolvePath } from "./paths";

/**
 * What the language-service tools share: the file, line and name the model gives turned into the
 * position a server needs (models count lines well and columns badly, so they name the symbol and
 * the column is found here), the call to the server with a time limit, and the lines of the files
 * an answer points into, each file read once, those hidden by .kilocodeignore left out.
 */

/** A language server that has not answered by then is taken as stuck (a first answer may wait for its project to load). */
export const LANGUAGE_SERVER_TIMEOUT_MS = 60_000;
/** Longer lines are cut around the symbol. */
const MAX_LINE_CHARS = 200;

const FALLBACK = "Use search_files with the name (a regex such as `\\bname\\b`), codebase_search or list_code_definition_names instead.";

/** The tools these are: offered only where the host has language services (not in the CLI). */
export const LANGUAGE_SERVICE_TOOLS: ReadonlySet<string> = new Set(["go_to_definition", "find_references", "workspace_symbols", "call_hierarchy", "rename_symbol"]);

/** The position the model named: the file, its 1-based line, the symbol as found on it. */
export interface SymbolTarget {
  at: SymbolPosition;
  /** As the model and user see it: workspace-relative. */
  display: string;
  /** 1-based. */
  line: number;
  symbol: string;
  /** `src/a.ts:12`, the place asked about. */
  where: string;
}

type Found<T> = { ok: true; value: T } | { ok: false; outcome: ToolOutcome };

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;
const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;
/** Words that start many lines and are never what a definition is asked of (go_to_definition without a symbol). */
const KEYWORDS = new Set(
  (
    "abstract async await break case catch class const continue def default defer delete do elif else enum export extends extern fn for from func function " +
    "go if impl implements import in interface internal is let match mod module mut namespace new override package private protected pub public readonly " +
    "return self static struct super switch this throw trait try type typeof use using val var void where while with yield"
  ).split(" "),
);

export function servicesOf(context: ToolContext, tool: string): Found<LanguageServices> {
  if (context.languageServices) return { ok: true, value: context.languageServices };
  return { ok: false, outcome: toolError("unavailable", `${tool} needs an editor's language servers, and there are none here. ${FALLBACK}`) };
}

/**
 * The column of `symbol` on `text` (a line): its first whole-word occurrence; for a dotted name
 * (`this.save`, `Config.load`) its last part, the one the servers look up. Undefined when absent.
 */
export function columnOf(text: string, symbol: string): number | undefined {
  const wordStart = IDENTIFIER_CHAR.test(symbol[0] ?? "");
  const wordEnd = IDENTIFIER_CHAR.test(symbol.at(-1) ?? "");
  for (let from = text.indexOf(symbol); from !== -1; from = text.indexOf(symbol, from + 1)) {
    if (wordStart && from > 0 && IDENTIFIER_CHAR.test(text[from - 1]!)) continue;
    const after = text[from + symbol.length];
    if (wordEnd && after !== undefined && IDENTIFIER_CHAR.test(after)) continue;
    const parts = [...symbol.matchAll(IDENTIFIER)];
    return from + (parts.at(-1)?.index ?? 0);
  }
  return undefined;
}

/** The name as the model wrote it, without what models add around one: backticks, quotes, a call's `()`. */
function cleanSymbol(symbol: string): string {
  return symbol
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, "")
    .replace(/\(\s*\)$/, "")
    .trim();
}

/** A line as shown in a result: without its indentation, a long one cut around `column`. */
export function shownLine(text: string, column = 0): string {
  const trimmed = text.trimStart();
  const at = Math.max(0, column - (text.length - trimmed.length));
  if (trimmed.length <= MAX_LINE_CHARS) return trimmed.trimEnd();
  const start = Math.max(0, Math.min(at - 60, trimmed.length - MAX_LINE_CHARS));
  return `${start > 0 ? "…" : ""}${trimmed.slice(start, start + MAX_LINE_CHARS)}${start + MAX_LINE_CHARS < trimmed.length ? "…" : ""}`;
}

/** A file's text as the editor has it, split in lines; a binary file or one that cannot be read gives undefined. */
async function readLines(context: ToolContext, absolute: string): Promise<string[] | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await context.fs.readFile(absolute);
  } catch {
    return undefined;
  }
  if (classify(absolute, bytes).kind !== "text") return undefined;
  const decoded = decodeBytes(bytes, await context.fs.encodingHint?.(absolute));
  const text = decoded.ok ? decoded.text : new TextDecoder().decode(bytes);
  return text.split(/\r\n|\r|\n/);
}

/**
 * Checks the file, line and symbol a call names and finds the symbol's column. Without a symbol
 * (go_to_definition may leave it out), the line's first name that is not a keyword.
 */
export async function locateSymbol(context: ToolContext, path: string, line: number, symbol: string | undefined): Promise<Found<SymbolTarget>> {
  const fail = (outcome: ToolOutcome): Found<SymbolTarget> => ({ ok: false, outcome });
  if (path.trim() === "") return fail(toolError("invalid_args", "<path> is empty; give the file the symbol is in."));
  const target = resolvePath(context.cwd, path);
  const stat = await context.fs.stat(target.absolute);
  if (!stat) return fail(toolError("not_found", `${target.display} does not exist. Use list_files or search_files to find the file.`));
  if (stat.type === "directory") return fail(toolError("wrong_type", `${target.display} is a folder; give the file the symbol is in.`));
  if (stat.type !== "file") return fail(toolError("wrong_type", `${target.display} is not a regular file.`));
  const lines = await readLines(context, target.absolute);
  if (!lines) return fail(toolError("unsupported", `${target.display} is not a text file; language servers read source code.`));
  const total = lines.length > 1 && lines.at(-1) === "" ? lines.length - 1 : lines.length;
  if (!Number.isInteger(line) || line < 1) return fail(toolError("invalid_args", `<line> must be a line number from 1; got ${line}.`));
  if (line > total) return fail(toolError("invalid_args", `${target.display} has ${total} line${total === 1 ? "" : "s"}; line ${line} does not exist.`));
  const text = lines[line - 1]!;
  const where = `${target.display}:${line}`;
  const asked = symbol === undefined ? "" : cleanSymbol(symbol);
  if (asked === "") {
    if (symbol !== undefined) return fail(toolError("invalid_args", "<symbol> is empty; give the name as it is written on the line."));
    const first = [...text.matchAll(IDENTIFIER)].find((m) => !KEYWORDS.has(m[0]));
    if (!first) return fail(toolError("invalid_args", `line ${where} has no name to look up (it reads \`${shownLine(text)}\`). Give <symbol> and the line where it is written.`));
    return { ok: true, value: { at: { path: target.absolute, position: { line: line - 1, character: first.index } }, display: target.display, line, symbol: first[0], where } };
  }
  const column = columnOf(text, asked);
  if (column === undefined) {
    const elsewhere = nearbyLines(lines, line, asked);
    const hint = elsewhere.length > 0 ? ` It is on line${elsewhere.length === 1 ? "" : "s"} ${elsewhere.join(", ")} nearby.` : "";
    return fail(
      toolError(
        "invalid_args",
        `\`${asked}\` is not on line ${where}, which reads \`${shownLine(text)}\`.${hint} Give the line where the name is written and the name exactly as it is written there.`,
      ),
    );
  }
  return { ok: true, value: { at: { path: target.absolute, position: { line: line - 1, character: column } }, display: target.display, line, symbol: asked, where } };
}

/** The lines within ten of `line` that hold `symbol`, nearest first (models often miscount a little). */
function nearbyLines(lines: readonly string[], line: number, symbol: string): number[] {
  const found: number[] = [];
  for (let distance = 1; distance <= 10 && found.length < 3; distance++) {
    for (const n of [line - distance, line + distance]) {
      if (n >= 1 && n <= lines.length && columnOf(lines[n - 1]!, symbol) !== undefined) found.push(n);
    }
  }
  return found.slice(0, 3);
}

/**
 * Asks a language server, giving up after LANGUAGE_SERVER_TIMEOUT_MS or when the call is cancelled.
 * A server that fails or takes too long is reported with what to use instead.
 */
export async function askServer<T>(context: ToolContext, tool: string, ask: () => Promise<T>): Promise<Found<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<"timeout" | "cancelled">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), LANGUAGE_SERVER_TIMEOUT_MS);
    onAbort = () => resolve("cancelled");
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const answer = await Promise.race([ask().then((value) => ({ value })), stopped]);
    if (answer === "cancelled") return { ok: false, outcome: { kind: "result", text: "Cancelled." } };
    if (answer === "timeout") return { ok: false, outcome: toolError("failed", `the language server did not answer ${tool} within ${LANGUAGE_SERVER_TIMEOUT_MS / 1000} s. ${FALLBACK}`) };
    return { ok: true, value: answer.value };
  } catch (err) {
    if (context.signal.aborted) return { ok: false, outcome: { kind: "result", text: "Cancelled." } };
    return { ok: false, outcome: toolError("failed", `the language server could not answer ${tool}: ${err instanceof Error ? err.message : String(err)}. ${FALLBACK}`) };
  } finally {
    clearTimeout(timer);
    if (onAbort) context.signal.removeEventListener("abort", onAbort);
  }
}

/**
 * What a tool that works at a symbol does first: checks there are language servers, finds the
 * symbol's position from the file, line and name, and asks the servers there.
 */
export async function askAtSymbol<T>(
  context: ToolContext,
  tool: string,
  args: { path: string; line: number; symbol?: string },
  ask: (services: LanguageServices, at: SymbolPosition) => Promise<T>,
): Promise<Found<{ target: SymbolTarget; answer: T }>> {
  const services = servicesOf(context, tool);
  if (!services.ok) return services;
  const target = await locateSymbol(context, args.path, args.line, args.symbol);
  if (!target.ok) return target;
  const answer = await askServer(context, tool, () => ask(services.value, target.value.at));
  return answer.ok ? { ok: true, value: { target: target.value, answer: answer.value } } : answer;
}

/** Why a server's answer is empty, and what to do instead. */
export function nothingFound(what: string, language: string): string {
  if (language === "plaintext") return `${what}: the editor reads this file as plain text, so no language server covers it. ${FALLBACK}`;
  return `${what}: the ${language} language server found nothing there, or none is installed for ${language} (or it is still starting). ${FALLBACK}`;
}

/** A location as the answer shows it: inside the workspace and readable, outside, or hidden (left out). */
export interface Placed {
  location: CodeLocation;
  /** Workspace-relative inside it, absolute outside. */
  display: string;
  /** 1-based line of the name. */
  line: number;
  outside: boolean;
}

/**
 * The files an answer points into: where each location is shown, its lines read once per file (only
 * inside the workspace: code outside it is read by read_file, which asks), and what .kilocodeignore
 * hides left out and counted.
 */
export class AnswerFiles {
  private readonly texts = new Map<string, Promise<string[] | undefined>>();
  hidden = 0;

  constructor(private readonly context: ToolContext) {}

  /** The locations that may be shown, in the order given; the hidden ones counted in `hidden`. */
  place(locations: readonly CodeLocation[]): Placed[] {
    const rules = ignoreRulesOf(this.context);
    const placed: Placed[] = [];
    for (const location of locations) {
      const resolved = resolvePath(this.context.cwd, location.path);
      if (!resolved.outsideWorkspace && rules.isHiddenFromAgent(resolved.absolute)) {
        this.hidden++;
        continue;
      }
      placed.push({ location, display: resolved.display, line: location.range.start.line + 1, outside: resolved.outsideWorkspace });
    }
    return placed;
  }

  /** The file's lines, or undefined outside the workspace or where it cannot be read as text. */
  async lines(placed: Placed): Promise<string[] | undefined> {
    if (placed.outside) return undefined;
    let text = this.texts.get(placed.location.path);
    if (!text) this.texts.set(placed.location.path, (text = readLines(this.context, placed.location.path)));
    return text;
  }

  /** The location's own line, shown; undefined where the file cannot be shown. */
  async lineAt(placed: Placed, range: TextRange = placed.location.range): Promise<string | undefined> {
    const text = (await this.lines(placed))?.[range.start.line];
    return text === undefined ? undefined : shownLine(text, range.start.character);
  }

  /** A note on what was left out, or "". */
  hiddenNote(): string {
    return this.hidden === 0 ? "" : `\n(${this.hidden} more in files hidden from Kiln by .kilocodeignore, left out.)`;
  }
}

/** `n thing` or `n things`. */
export function count(n: number, thing: string, things = `${thing}s`): string {
  return `${n} ${n === 1 ? thing : things}`;
}
