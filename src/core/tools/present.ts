import * as l10n from "@vscode/l10n";
import type { ToolStatus } from "../../shared/protocol/chat";
import { fields, TARGET_SLOT, withoutTarget, type ToolHunk, type ToolIcon, type ToolLink, type ToolView, type ToolViewBody } from "../../shared/toolView";

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
      hunk.label = l10n.t("at line {0}", Number(hint[1]));
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

/**
 * A card's title in each status, each a whole sentence so a translation can say it its own way:
 * "Kiln wants to edit ␁", "Kiln is editing ␁", "Kiln edited ␁", "Kiln was not allowed to edit ␁",
 * "Kiln could not edit ␁", with TARGET_SLOT (as `{0}`) where the target goes. Each is an l10n.t
 * call made when a card is drawn (the display language's bundle is applied after this loads), and
 * only the one for the call's status is made: a card is drawn again on every streamed piece.
 */
export interface Sentences {
  wants: () => string;
  doing: () => string;
  did: () => string;
  denied: () => string;
  failed: () => string;
}

/** The title sentence for a call in this status. */
export function said(status: ToolStatus, sentences: Sentences): string {
  switch (status) {
    case "streaming":
    case "waiting":
      return sentences.wants();
    case "running":
      return sentences.doing();
    case "done":
      return sentences.did();
    case "denied":
      return sentences.denied();
    case "error":
      return sentences.failed();
  }
}

/** The file tools' sentences, shared so every kind of edit reads the same. */
export function editing(): Sentences {
  return {
    wants: () => l10n.t("Kiln wants to edit {0}", TARGET_SLOT),
    doing: () => l10n.t("Kiln is editing {0}", TARGET_SLOT),
    did: () => l10n.t("Kiln edited {0}", TARGET_SLOT),
    denied: () => l10n.t("Kiln was not allowed to edit {0}", TARGET_SLOT),
    failed: () => l10n.t("Kiln could not edit {0}", TARGET_SLOT),
  };
}

/** The command tools' sentences: a command line, a workflow. */
export function running(): Sentences {
  return {
    wants: () => l10n.t("Kiln wants to run {0}", TARGET_SLOT),
    doing: () => l10n.t("Kiln is running {0}", TARGET_SLOT),
    did: () => l10n.t("Kiln ran {0}", TARGET_SLOT),
    denied: () => l10n.t("Kiln was not allowed to run {0}", TARGET_SLOT),
    failed: () => l10n.t("Kiln could not run {0}", TARGET_SLOT),
  };
}

/** A link to the path the call works on (at a line), or none while the path has not arrived. */
export function linkTo(path: string | undefined, line?: string): ToolLink | undefined {
  if (!path?.trim()) return undefined;
  const at = line === undefined ? NaN : Number(line);
  return { path: path.trim(), ...(Number.isInteger(at) && at > 0 ? { line: at } : {}) };
}

/** A command line's first line, cut to fit a title; `…` says more follows. */
export function commandTarget(command: string | undefined, max = 80): string | undefined {
  const lines = command?.trim().split(/\r?\n/) ?? [];
  const first = lines[0]?.trim();
  if (!first) return undefined;
  if (first.length > max) return `${first.slice(0, max - 1)}…`;
  return lines.length > 1 ? `${first} …` : first;
}

export interface Heading {
  icon: ToolIcon;
  title: string;
  target?: string | undefined;
  link?: ToolLink | undefined;
  code?: boolean;
}

/** A view with only the parts that have something in them (no empty target, no body key for no body). */
export function view(heading: Heading, body?: ToolViewBody): ToolView {
  const { icon, title, target, link, code } = heading;
  return {
    icon,
    // Until the target arrives its slot is left out, and the space beside it.
    title: target ? title : withoutTarget(title),
    ...(target ? { target, ...(code && { code }), ...(link && { link }) } : {}),
    ...(body ? { body } : {}),
  };
}

/**
 * A call of a tool that does not present itself (a tool a test defines, one this version does not
 * know): its name, the path or URL it works on, and its other arguments as labelled values.
 */
export function plainView(name: string, params: Readonly<Record<string, string>>, status: ToolStatus): ToolView {
  const key = params.path ? "path" : params.url ? "url" : undefined;
  const rows = Object.entries(params).filter(([name]) => name !== key);
  const tool = name || l10n.t("a tool");
  // The target (a path or URL) follows the tool's name: these sentences have no slot for it.
  const title = said(status, {
    wants: () => l10n.t("Kiln wants to use {0}", tool),
    doing: () => l10n.t("Kiln is using {0}", tool),
    did: () => l10n.t("Kiln used {0}", tool),
    denied: () => l10n.t("Kiln was not allowed to use {0}", tool),
    failed: () => l10n.t("Kiln could not use {0}", tool),
  });
  return view({ icon: "tools", title, target: key && params[key], link: key === "path" ? linkTo(params.path) : undefined }, fieldsBody(rows));
}
