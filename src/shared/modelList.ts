import type { ModelRowView } from "./protocol/settings";

/** The model picker's search and the figures both the picker and `kiln models` show. */

/** The rows whose id or name holds every word of the query, in the list's order: the model picker's search. */
export function filterModels(models: readonly ModelRowView[], query: string): ModelRowView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...models];
  return models.filter((m) => {
    const text = `${m.id} ${m.name ?? ""}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** A token count for a narrow column: "200k", "1M", "1.05M". */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(2))}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return String(n);
}

/** USD per million tokens: "$3.00", "$0.025", `free` (the caller's word) for 0, "?" when unknown. */
export function formatPrice(perMillion: number | undefined, free = "free"): string {
  if (perMillion === undefined) return "?";
  if (perMillion === 0) return free;
  return `$${perMillion < 0.1 ? Number(perMillion.toPrecision(2)) : perMillion.toFixed(2)}`;
}
