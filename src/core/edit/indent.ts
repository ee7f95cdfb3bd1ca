/**
 * A block matched where the file's indentation differs from the SEARCH text's (another depth, tabs
 * for spaces, 4 spaces for 2): its REPLACE lines are moved to the file's indentation, keeping their
 * depth relative to the SEARCH text and written in the file's style.
 */

interface Style {
  tabs: boolean;
  /** Spaces per level; undefined when the lines do not show it. */
  width: number | undefined;
}

function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return line.slice(0, i);
}

const isBlank = (line: string) => line.trim() === "";

/** Tabs or spaces, and how many spaces a level is: the most common step between nonblank lines. */
function styleOf(lines: readonly string[]): Style {
  let tabbed = 0;
  let spaced = 0;
  const steps = new Map<number, number>();
  let previous: number | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const indent = indentOf(line);
    if (indent.startsWith("\t")) tabbed++;
    else if (indent.length > 0) spaced++;
    if (indent.includes("\t")) {
      previous = undefined;
      continue;
    }
    // A JSDoc " * " line sits one space in; it is alignment, not a level.
    if (previous !== undefined && !line.trimStart().startsWith("*")) {
      const step = Math.abs(indent.length - previous);
      if (step >= 2) steps.set(step, (steps.get(step) ?? 0) + 1);
    }
    if (!line.trimStart().startsWith("*")) previous = indent.length;
  }
  let width: number | undefined;
  let most = 0;
  for (const [step, count] of steps) {
    if (count > most || (count === most && step < width!)) {
      width = step;
      most = count;
    }
  }
  return { tabs: tabbed > spaced, width };
}

/** Width in columns, tabs to the next multiple of 4: only compared with widths measured alike. */
function columns(indent: string): number {
  let c = 0;
  for (const ch of indent) c = ch === "\t" ? c + 4 - (c % 4) : c + 1;
  return c;
}

/**
 * The first SEARCH line whose depth relative to the other lines differs from the file's, or -1.
 * Matching that ignores whitespace takes a uniform shift, tabs for spaces or another indent width,
 * but not SEARCH nesting lines differently from the file: in Python that is another program.
 */
export function nestingDiffers(search: readonly string[], fileLines: readonly string[]): number {
  const toFile = new Map<number, number>();
  const toSearch = new Map<number, number>();
  const firstLine = new Map<number, number>();
  for (let k = 0; k < search.length; k++) {
    if (isBlank(search[k]!) || isBlank(fileLines[k]!)) continue;
    const s = columns(indentOf(search[k]!));
    const f = columns(indentOf(fileLines[k]!));
    const known = toFile.get(s);
    if (known === undefined ? toSearch.has(f) : known !== f) return k;
    toFile.set(s, f);
    toSearch.set(f, s);
    if (!firstLine.has(s)) firstLine.set(s, k);
  }
  const depths = [...toFile.entries()].sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < depths.length; i++) if (depths[i]![1] <= depths[i - 1]![1]) return firstLine.get(depths[i]![0])!;
  return -1;
}

/** Indentation as levels: a tab is one, a space 1/width. */
function levelsOf(indent: string, width: number): number {
  let levels = 0;
  for (const ch of indent) levels += ch === "\t" ? 1 : 1 / width;
  return levels;
}

function render(levels: number, style: Style, fileWidth: number, searchWidth: number): string {
  const clamped = Math.max(0, levels);
  const whole = Math.floor(clamped + 1e-9);
  // What is left over is alignment (a JSDoc star, a wrapped argument): kept as that many spaces.
  const align = Math.round((clamped - whole) * searchWidth);
  return (style.tabs ? "\t".repeat(whole) : " ".repeat(whole * fileWidth)) + " ".repeat(align);
}

/**
 * Indentation as SEARCH wrote it -> as the file has it. Each indentation seen on a SEARCH line maps
 * to its matched file line's (so uneven drift is followed line by line); one not seen is placed by
 * its depth relative to the nearest seen one below it (or above, for a line shallower than all).
 */
function indentMapper(search: readonly string[], replace: readonly string[], fileLines: readonly string[], start: number): (indent: string) => string {
  const pairs = new Map<string, string>();
  search.forEach((line, k) => {
    if (!isBlank(line) && !pairs.has(indentOf(line))) pairs.set(indentOf(line), indentOf(fileLines[start + k]!));
  });
  const fileStyle = styleOf(fileLines);
  const someIndent = [...pairs.values()].find((indent) => indent.length > 0);
  if (someIndent !== undefined) fileStyle.tabs = someIndent.startsWith("\t");
  const searchStyle = styleOf([...search, ...replace]);
  const fileWidth = fileStyle.width ?? searchStyle.width ?? 4;
  const searchWidth = searchStyle.width ?? fileWidth;
  const known = [...pairs.keys()].map((indent) => ({ indent, level: levelsOf(indent, searchWidth) })).sort((a, b) => a.level - b.level);
  return (indent) => {
    const mapped = pairs.get(indent);
    if (mapped !== undefined) return mapped;
    const level = levelsOf(indent, searchWidth);
    const below = known.filter((k) => k.level <= level + 1e-9).at(-1);
    if (below) return pairs.get(below.indent)! + render(level - below.level, fileStyle, fileWidth, searchWidth);
    const above = known[0]!;
    return render(levelsOf(pairs.get(above.indent)!, fileWidth) + level - above.level, fileStyle, fileWidth, searchWidth);
  };
}

/**
 * REPLACE lines for a block matched at `fileLines[start…]`, where `fileLines` is the match and some
 * lines around it (enough to show the file's indentation style). Unchanged from the input when every
 * matched line has the SEARCH line's indentation. Lines that REPLACE repeats verbatim from SEARCH
 * (context the model meant to keep) take the file's own version of that line, so a match that
 * ignored whitespace or a typo leaves those lines exactly as they were.
 */
export function adaptReplacement(search: readonly string[], replace: readonly string[], fileLines: readonly string[], start: number): string[] {
  const kept = new Map<string, string | null>();
  search.forEach((line, k) => kept.set(line, kept.has(line) ? null : fileLines[start + k]!));
  const drifted = search.some((line, k) => !isBlank(line) && indentOf(line) !== indentOf(fileLines[start + k]!));
  const map = drifted ? indentMapper(search, replace, fileLines, start) : undefined;
  return replace.map((line) => {
    const original = kept.get(line);
    if (typeof original === "string") return original;
    if (!map || isBlank(line)) return line;
    const indent = indentOf(line);
    return map(indent) + line.slice(indent.length);
  });
}
