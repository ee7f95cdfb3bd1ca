import type { HistoryEntry } from "./historyEntry";

export interface HistoryGroup {
  workspace: string;
  entries: HistoryEntry[];
}

/**
 * The history view's list: matching tasks, newest first, grouped by workspace (the current one
 * first). Every word of the query must appear in the title, in any case and order.
 */
export function groupHistory(entries: readonly HistoryEntry[], options: { query?: string; favoritesOnly?: boolean; currentWorkspace?: string } = {}): HistoryGroup[] {
  const words = (options.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const matching = entries
    .filter((e) => !options.favoritesOnly || e.favorite)
    .filter((e) => words.every((w) => e.title.toLowerCase().includes(w)))
    .sort((a, b) => b.updatedAt - a.updatedAt);
  const groups = new Map<string, HistoryEntry[]>();
  for (const entry of matching) {
    const list = groups.get(entry.workspace) ?? [];
    list.push(entry);
    groups.set(entry.workspace, list);
  }
  return [...groups.entries()]
    .map(([workspace, list]) => ({ workspace, entries: list }))
    .sort((a, b) => rank(a, options.currentWorkspace) - rank(b, options.currentWorkspace) || b.entries[0]!.updatedAt - a.entries[0]!.updatedAt);
}

function rank(group: HistoryGroup, current: string | undefined): number {
  return group.workspace === current ? 0 : 1;
}
