import type { ModelRowView } from "./protocol/settings";

/** The rows whose id or name holds every word of the query, in the list's order: the model picker's search. */
export function filterModels(models: readonly ModelRowView[], query: string): ModelRowView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...models];
  return models.filter((m) => {
    const text = `${m.id} ${m.name ?? ""}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
