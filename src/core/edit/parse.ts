/**
 * Reads the SEARCH/REPLACE blocks of a diff. Lenient where models vary (marker lengths, spaces,
 * the optional `-------` line, line numbers copied from read_file), strict where a guess could edit
 * the wrong text (a block that is not closed, an unclear separator).
 */

export interface DiffBlock {
  /** 1-based, in the order the model wrote them: the number its error messages use. */
  index: number;
  search: string[];
  replace: string[];
  /** The `:start_line:` hint, 1-based, if given. */
  startLine?: number;
}

export interface BlockError {
  block: number;
  message: string;
}

export type ParseResult = { ok: true; blocks: DiffBlock[] } | { ok: false; errors: BlockError[] };

const SEARCH_MARK = /^[ \t]*<{5,}[ \t]*SEARCH[ \t>:]*$/i;
const SEPARATOR = /^[ \t]*={5,}[ \t]*$/;
const REPLACE_MARK = /^[ \t]*>{5,}[ \t]*REPLACE[ \t<:]*$/i;
const DASHES = /^[ \t]*-{3,}[ \t]*$/;
const START_HINT = /^[ \t]*:start_line:[ \t]*(\d+)[ \t]*$/i;
const END_HINT = /^[ \t]*:end_line:[ \t]*\d+[ \t]*$/i;
/** The canonical separator, preferred when content lines also look like one (a Markdown heading). */
const CANONICAL_SEPARATOR = /^=======[ \t]*$/;
/** read_file's `  12 | ` prefix, which models sometimes copy into SEARCH. */
const LINE_NUMBER = /^ *\d+ \|(?: |$)/;

function isMarker(line: string): boolean {
  return SEARCH_MARK.test(line) || SEPARATOR.test(line) || REPLACE_MARK.test(line);
}

/** A content line that looks like a marker can be written with a leading backslash. */
function unescape(line: string): string {
  return line.startsWith("\\") && isMarker(line.slice(1)) ? line.slice(1) : line;
}

function stripLineNumbers(block: DiffBlock): void {
  if (!block.search.every((line) => line === "" || LINE_NUMBER.test(line))) return;
  if (!block.search.some((line) => LINE_NUMBER.test(line))) return;
  block.search = block.search.map((line) => line.replace(LINE_NUMBER, ""));
  block.replace = block.replace.map((line) => line.replace(LINE_NUMBER, ""));
}

interface OpenBlock {
  index: number;
  startLine?: number;
  /** Raw body lines between the header and `>>>>>>> REPLACE`. */
  body: string[];
  inHeader: boolean;
  dashed?: boolean;
}

function finish(open: OpenBlock, errors: BlockError[]): DiffBlock | undefined {
  const separators = open.body.flatMap((line, i) => (SEPARATOR.test(line) ? [i] : []));
  let at = separators[0];
  if (separators.length === 0) {
    errors.push({ block: open.index, message: "it has no ======= line between its SEARCH and REPLACE parts." });
    return undefined;
  }
  if (separators.length > 1) {
    const canonical = separators.filter((i) => CANONICAL_SEPARATOR.test(open.body[i]!));
    if (canonical.length !== 1) {
      errors.push({
        block: open.index,
        message: `it has ${separators.length} lines that look like the ======= separator, so where SEARCH ends is unclear. Keep exactly one separator; write a content line made of = signs with a leading backslash (\\=======).`,
      });
      return undefined;
    }
    at = canonical[0];
  }
  const block: DiffBlock = {
    index: open.index,
    search: open.body.slice(0, at).map(unescape),
    replace: open.body.slice(at! + 1).map(unescape),
    startLine: open.startLine,
  };
  stripLineNumbers(block);
  if (block.search.every((line) => line.trim() === "")) {
    errors.push({
      block: open.index,
      message:
        block.search.length === 0
          ? "its SEARCH part is empty. SEARCH must hold the existing lines to replace; to add lines, put a neighbouring line in SEARCH and repeat it in REPLACE with the new lines, or use write_to_file for a new file."
          : "its SEARCH part holds only blank lines, which could match anywhere. Include the non-blank lines around the place to change.",
    });
    return undefined;
  }
  if (block.search.length === block.replace.length && block.search.every((line, i) => line === block.replace[i])) {
    errors.push({ block: open.index, message: "its SEARCH and REPLACE parts are the same, so it changes nothing. Leave it out, or put the change in REPLACE." });
    return undefined;
  }
  return block;
}

export function parseDiff(diff: string): ParseResult {
  const lines = diff.split(/\r?\n/);
  const blocks: DiffBlock[] = [];
  const errors: BlockError[] = [];
  let count = 0;
  let open: OpenBlock | undefined;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (!open) {
      if (SEARCH_MARK.test(line)) open = { index: ++count, body: [], inHeader: true };
      else if (SEPARATOR.test(line) || REPLACE_MARK.test(line)) {
        errors.push({ block: count + 1, message: `line ${n + 1} of the diff ("${line.trim()}") comes before any <<<<<<< SEARCH line; each block starts with <<<<<<< SEARCH.` });
      }
      // Anything else outside blocks (prose, code fences) is not part of an edit.
      continue;
    }
    if (open.inHeader) {
      const hint = START_HINT.exec(line);
      if (hint) {
        open.startLine = Number(hint[1]);
        continue;
      }
      if (END_HINT.test(line)) continue;
      // Hints may come after the ------- line too; a second dashed line is content.
      if (!open.dashed && DASHES.test(line)) {
        open.dashed = true;
        continue;
      }
      open.inHeader = false;
    }
    if (REPLACE_MARK.test(line)) {
      const block = finish(open, errors);
      if (block) blocks.push(block);
      open = undefined;
    } else if (SEARCH_MARK.test(line)) {
      errors.push({ block: open.index, message: "it is not closed: a new <<<<<<< SEARCH starts before its >>>>>>> REPLACE line." });
      open = { index: ++count, body: [], inHeader: true };
    } else {
      open.body.push(line);
    }
  }
  if (open) {
    errors.push({ block: open.index, message: "it is not closed: the diff ends before its >>>>>>> REPLACE line (was the reply cut off?)." });
  }
  if (errors.length > 0) return { ok: false, errors };
  if (blocks.length === 0) return { ok: false, errors: [{ block: 0, message: "the diff holds no <<<<<<< SEARCH … ======= … >>>>>>> REPLACE block." }] };
  return { ok: true, blocks };
}

/** How many blocks a diff seems to hold, for an approval summary before it is parsed in full. */
export function countBlocks(diff: string): number {
  let n = 0;
  for (const line of diff.split("\n")) if (SEARCH_MARK.test(line.replace(/\r$/, ""))) n++;
  return n;
}
