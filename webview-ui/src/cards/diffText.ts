/** One SEARCH/REPLACE block of apply_diff, as far as it has streamed. */
export interface DiffBlock {
  /** `:start_line:` when given. */
  startLine?: number;
  search: string[];
  replace: string[];
  /** False while the block is still streaming (no `>>>>>>> REPLACE` yet). */
  complete: boolean;
}

const MARKER = /^(<{7} SEARCH|={7}|>{7} REPLACE|-{7})\s*$/;

/**
 * Reads apply_diff's SEARCH/REPLACE blocks leniently: a diff cut off mid-stream gives the blocks
 * so far, the last one incomplete. A content line that looks like a marker is written with a
 * leading backslash; it is shown without it.
 */
export function parseDiffBlocks(diff: string): DiffBlock[] {
  const blocks: DiffBlock[] = [];
  let block: DiffBlock | undefined;
  let side: "search" | "replace" = "search";
  for (const raw of diff.split(/\r?\n/)) {
    const marker = MARKER.exec(raw)?.[1];
    if (marker?.startsWith("<<<<<<<")) {
      block = { search: [], replace: [], complete: false };
      side = "search";
      blocks.push(block);
      continue;
    }
    if (!block || block.complete) continue;
    if (marker?.startsWith(">>>>>>>")) {
      block.complete = true;
      continue;
    }
    if (marker === "=======") {
      side = "replace";
      continue;
    }
    const hint = side === "search" && block.search.length === 0 ? /^:start_line:\s*(\d+)\s*$/.exec(raw) : null;
    if (hint) {
      block.startLine = Number(hint[1]);
      continue;
    }
    // `-------` separates the hint from the code; only right there is it a marker.
    if (marker === "-------" && side === "search" && block.search.length === 0) continue;
    block[side].push(/^\\(<{7}|={7}|>{7}|-{7})/.test(raw) ? raw.slice(1) : raw);
  }
  return blocks;
}

export type LineKind = "add" | "del" | "hunk" | "meta" | "context";

/** How a unified diff line is coloured: added, removed, hunk header, file header, context. */
export function unifiedLineKind(line: string): LineKind {
  if (line.startsWith("+++") || line.startsWith("---")) return "meta";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "del";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("\\") || line.startsWith("Index:") || line.startsWith("=====")) return "meta";
  return "context";
}

/** Lines in a text, not counting the newline that ends the last one. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
