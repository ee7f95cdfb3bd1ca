import { builtinModelIds, resolveModelInfo, type ModelInfo } from "./models";
import type { ModelListing, ProviderKind } from "./types";

/** One model as a picker or `kiln models` shows it: what the provider listed, over the built-in table. */
export interface ModelRow extends ModelInfo {
  id: string;
  name?: string;
  /** Whether the window and prices are the provider's or the table's, not Kiln's defaults. */
  known: boolean;
}

/**
 * The rows for a provider's listed models. The built-in table fills what the list leaves out
 * (Anthropic and OpenAI list ids only); what the list says wins, since it is the provider's own and current.
 */
export function modelRows(kind: ProviderKind, listings: readonly ModelListing[]): ModelRow[] {
  return listings
    .map((m) => {
      const { info, matched } = resolveModelInfo(kind, m.id, undefined, m.info);
      const known = matched !== undefined || m.info?.contextWindow !== undefined;
      return { id: m.id, ...(m.name && { name: m.name }), ...info, known };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The built-in table's models of a kind, for a provider without a list (or one that could not be asked). */
export function builtinRows(kind: ProviderKind): ModelRow[] {
  return modelRows(
    kind,
    builtinModelIds(kind).map((id) => ({ id })),
  );
}
