import * as l10n from "@vscode/l10n";
import type { MentionMatch, SlashCommandInfo } from "../../src/shared/protocol/messages";

/** One row of the @ or / picker, and the text that picking it puts in the input. */
export interface PickerItem {
  key: string;
  label: string;
  detail: string;
  insert: string;
}

/** What the text before the caret asks for: a / command (first word) or an @ mention being typed. */
export type Trigger = { kind: "command"; query: string; start: number } | { kind: "mention"; query: string; start: number };

export function triggerAt(text: string, caret: number): Trigger | undefined {
  const before = text.slice(0, caret);
  const command = /^\/([A-Za-z0-9._-]*)$/.exec(before);
  if (command) return { kind: "command", query: command[1]!, start: 0 };
  const mention = /(?:^|[\s([{"'])@([^\s@]*)$/.exec(before);
  if (mention) return { kind: "mention", query: mention[1]!, start: caret - mention[1]!.length - 1 };
  return undefined;
}

/** The mentions that are words, not paths (made when asked: their details are translated). */
function keywords(): PickerItem[] {
  return [
    { key: "problems", label: "problems", detail: l10n.t("Errors and warnings in the workspace"), insert: "@problems" },
    { key: "terminal", label: "terminal", detail: l10n.t("Output of the last command in Kiln's terminal"), insert: "@terminal" },
    { key: "git-changes", label: "git-changes", detail: l10n.t("Uncommitted changes (git diff)"), insert: "@git-changes" },
  ];
}

/** `@/a b.ts` is written `@/a\ b.ts`, so the space stays part of the mention. */
export function mentionForPath(path: string, isFolder: boolean): string {
  const clean = path.replace(/^\/+/, "").replace(/\/+$/, "").replace(/ /g, "\\ ");
  return `@/${clean}${isFolder ? "/" : ""}`;
}

/** Rows for a mention query: a typed URL or commit, the keywords it matches, then the host's files. */
export function mentionItems(query: string, files: MentionMatch[]): PickerItem[] {
  if (/^https?:\/\/\S+/i.test(query)) return [{ key: "url", label: query, detail: l10n.t("Fetch this page as Markdown"), insert: `@${query}` }];
  const out: PickerItem[] = [];
  if (/^[0-9a-f]{7,40}$/i.test(query)) out.push({ key: "commit", label: query, detail: l10n.t("Git commit: message and diff"), insert: `@${query}` });
  const q = query.toLowerCase();
  if (!q.startsWith("/")) out.push(...keywords().filter((k) => k.label.includes(q)));
  for (const file of files) {
    const isFolder = file.kind === "folder";
    out.push({ key: `${file.kind}:${file.path}`, label: `${file.path}${isFolder ? "/" : ""}`, detail: isFolder ? l10n.t("Folder") : l10n.t("File"), insert: mentionForPath(file.path, isFolder) });
  }
  return out;
}

export function commandItems(query: string, commands: readonly SlashCommandInfo[]): PickerItem[] {
  const q = query.toLowerCase();
  const matching = commands.filter((c) => c.name.toLowerCase().includes(q));
  // Names starting with what was typed come first; otherwise the host's order (built-ins first).
  matching.sort((a, b) => Number(!a.name.toLowerCase().startsWith(q)) - Number(!b.name.toLowerCase().startsWith(q)));
  return matching.map((c) => ({ key: `command:${c.name}`, label: `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`, detail: c.description, insert: `/${c.name}` }));
}

/** The input after picking `item` for `trigger`, and where the caret goes. */
export function applyPick(text: string, caret: number, trigger: Trigger, item: PickerItem): { text: string; caret: number } {
  const after = text.slice(caret).replace(/^\S*/, "");
  const inserted = `${item.insert} `;
  const next = text.slice(0, trigger.start) + inserted + after.replace(/^ /, "");
  return { text: next, caret: trigger.start + inserted.length };
}
