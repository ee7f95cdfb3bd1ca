/**
 * Splits Markdown into top-level pieces that render the same apart as together, so a streaming
 * message re-parses (and re-highlights) only its last piece: the ones above keep their text and
 * their memoized render. The scan is one pass over the lines, far cheaper than a parse.
 *
 * A piece ends at a blank line outside a code fence when the next line starts at column 0 and is
 * not a list item (a loose list stays one list). Indented lines after a blank line belong to what
 * came before (list continuations, indented code), so they are never split off.
 */
// Any indentation counts (a fence inside a list item): treating too much as code only means fewer pieces.
const FENCE = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^([*+-]|\d{1,9}[.)])(\s|$)/;
/** Reference links and footnotes resolve across the whole text: such a message stays whole. */
const DEFINITION = /^ {0,3}\[[^\]]+\]:/m;

export function splitBlocks(text: string): string[] {
  if (DEFINITION.test(text)) return [text];
  const lines = text.split("\n");
  const blocks: string[] = [];
  let start = 0;
  let fence: string | undefined;
  let blankBefore = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      // A fence closes with at least as many of the same character and nothing after them.
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length && line.trim() === close[1]) fence = undefined;
      continue;
    }
    const blank = line.trim() === "";
    if (!blank && blankBefore && i > start && !/^\s/.test(line) && !LIST_ITEM.test(line)) {
      push(blocks, lines, start, i);
      start = i;
    }
    const open = FENCE.exec(line);
    // A backtick fence's info string may not contain a backtick (then it is inline code).
    if (open && !(open[1]![0] === "`" && line.slice(line.indexOf(open[1]!) + open[1]!.length).includes("`"))) fence = open[1];
    blankBefore = blank;
  }
  push(blocks, lines, start, lines.length);
  return blocks.length > 0 ? blocks : [""];
}

/** Trailing blank lines are left out, so a piece's text is stable once the next piece begins. */
function push(blocks: string[], lines: string[], from: number, to: number): void {
  let end = to;
  while (end > from && lines[end - 1]!.trim() === "") end--;
  if (end > from) blocks.push(lines.slice(from, end).join("\n"));
}
