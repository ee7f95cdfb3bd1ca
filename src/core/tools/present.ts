import type { ToolStatus } from "../../shared/protocol/chat";
import { fields, type ToolHunk, type ToolView, type ToolViewBody } from "../../shared/toolView";

/**
 * Helpers for the tools' `present`: they read arguments leniently, as they are while they stream
 * (a diff cut off mid-block, a checklist's last line half written), and never throw.
 */

/** `:10-40`, `:10-` or `:1-40` from optional start and end lines; empty when neither is given. */
export function lineRange(start: string | undefined, end: string | undefined): string {
  return start || end ? `:${start ?? "1"}-${end ?? ""}` : "";
}

/** A text's lines; the newline that ends the last one starts no line of its own. */
export function toLines(text: string): string[] {
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}

/** While a call's arguments stream and until the user answers, its card previews them. */
export function beforeRun(status: ToolStatus): boolean {
  return status === "streaming" || status === "waiting";
}

/** A body of text, or none when there is no text (yet). */
export function markdown(text: string | undefined): ToolViewBody | undefined {
  return text ? { kind: "markdown", text } : undefined;
}

/** Label / value rows as a body, or none when none has a value yet. */
export function fieldsBody(rows: readonly (readonly [string, string | undefined])[], code = false): ToolViewBody | undefined {
  const shown = fields(rows, code);
  return shown.length > 0 ? { kind: "fields", fields: shown } : undefined;
}

const MARKER = /^(<{7} SEARCH|={7}|>{7} REPLACE|-{7})\s*$/;

/**
 * apply_diff's SEARCH/REPLACE blocks as hunks, read leniently: a diff cut off mid-stream gives the
 * blocks so far, the last one incomplete. A content line that looks like a marker is written with a
 * leading backslash; it is shown without it.
 */
export function searchReplaceHunks(diff: string): ToolHunk[] {
  const hunks: (ToolHunk & { complete: boolean })[] = [];
  let hunk: (ToolHunk & { complete: boolean }) | undefined;
  let side: "removed" | "added" = "removed";
  for (const raw of diff.split(/\r?\n/)) {
    const marker = MARKER.exec(raw)?.[1];
    if (marker?.startsWith("<<<<<<<")) {
      hunk = { removed: [], added: [], complete: false };
      side = "removed";
      hunks.push(hunk);
      continue;
    }
    if (!hunk || hunk.complete) continue;
    if (marker?.startsWith(">>>>>>>")) {
      hunk.complete = true;
      continue;
    }
    if (marker === "=======") {
      side = "added";
      continue;
    }
    const hint = side === "removed" && hunk.removed.length === 0 ? /^:start_line:\s*(\d+)\s*$/.exec(raw) : null;
    if (hint) {
      hunk.label = `at line ${Number(hint[1])}`;
      continue;
    }
    // `-------` separates the hint from the code; only right there is it a marker.
    if (marker === "-------" && side === "removed" && hunk.removed.length === 0) continue;
    hunk[side].push(/^\\(<{7}|={7}|>{7}|-{7})/.test(raw) ? raw.slice(1) : raw);
  }
  return hunks.map(({ complete: _, ...rest }) => rest);
}

const ITEM = /^\s*(?:[-*]\s*)?\[( |x|X|-|~)\]\s*(.*?)\s*$/;

/**
 * `- [ ] pending`, `- [-] in progress`, `- [x] done`, read leniently: the list may be cut off
 * mid-line while it streams, and a line that is not an item is kept as it is, without a status.
 */
export function checklistItems(text: string): Extract<ToolViewBody, { kind: "checklist" }>["items"] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const match = ITEM.exec(line);
      if (!match) return { text: line.trim() };
      const mark = match[1]!;
      return { text: match[2]!, status: mark === " " ? "pending" : mark === "x" || mark === "X" ? "completed" : "in_progress" };
    });
}

/** A view with only the parts that have something in them (no empty target, no body key for no body). */
export function view(title: string, target?: string, body?: ToolViewBody): ToolView {
  return { title, ...(target ? { target } : {}), ...(body ? { body } : {}) };
}

/**
 * A call of a tool that does not present itself (a tool a test defines, one this version does not
 * know): its name, the path or URL it works on, and its other arguments as labelled values.
 */
export function plainView(name: string, params: Readonly<Record<string, string>>): ToolView {
  const key = params.path ? "path" : params.url ? "url" : undefined;
  const rows = Object.entries(params).filter(([name]) => name !== key);
  return view(name || "tool", key && params[key], fieldsBody(rows));
}
