import { createHash } from "node:crypto";
import * as l10n from "@vscode/l10n";
import { explainFailure } from "../../../core/llm/connectionCheck";
import { createProvider } from "../../../core/llm/createProvider";
import { builtinRows, modelRows, type ModelRow } from "../../../core/llm/modelRows";
import { isProviderKind, type ProviderConfig } from "../../../core/llm/types";
import { RequestError } from "../../../shared/protocol/requests";
import type { ModelListAnswer, ModelRowView, ProfileForm } from "../../../shared/protocol/settings";
import { findProfile, providerOptionsOf, type Profile } from "./profiles";
import type { ProfileStore } from "./profileStore";

/** A list changes with a provider's releases; a picker opened again within this shows the same one at once. */
const CACHE_MS = 10 * 60 * 1000;
const LIST_TIMEOUT_MS = 20_000;
/** OpenRouter lists about 500; past this a list is a server's mistake, not a choice a person makes. */
const MAX_ROWS = 5_000;

/** Which form field a failed list points at, so the editor can show the message under it. */
const FIELD_OF = { key: "model", url: "baseUrl", model: "model", network: "baseUrl", other: "model" } as const;

function view(row: ModelRow): ModelRowView {
  return {
    id: row.id,
    ...(row.name && { name: row.name }),
    ...(row.known && { contextWindow: row.contextWindow, maxOutputTokens: row.maxOutputTokens }),
    ...(row.inputPrice !== undefined && { inputPrice: row.inputPrice }),
    ...(row.outputPrice !== undefined && { outputPrice: row.outputPrice }),
    tools: row.supportsNativeTools,
    vision: row.supportsImages,
  };
}

/**
 * The model pickers' lists (the profile editor's and the chat's): asked of the provider, kept a
 * while per endpoint and key, so the two pickers of one profile share what was fetched.
 */
export class ModelLists {
  private readonly cache = new Map<string, { at: number; answer: ModelListAnswer }>();

  constructor(
    private readonly store: ProfileStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The profile editor's: the provider the form is set to, with its URL and options. */
  async list(params: { original?: string; profile: ProfileForm; refresh?: boolean }): Promise<ModelListAnswer> {
    const form = params.profile;
    if (!isProviderKind(form.kind)) throw new RequestError(l10n.t("Pick a provider first."), "kind");
    const kind = form.kind;
    // The profile's own key while it keeps its provider; for another provider, that provider's stored or environment key.
    const original = params.original ? findProfile(this.store.read(), params.original) : undefined;
    const keyFrom: Profile = original?.kind === kind ? original : { id: "default", name: "default", kind, baseUrl: "", model: "", protocol: "xml", source: "legacy" };
    const config: ProviderConfig = { ...(await this.store.config(keyFrom)), kind, baseUrl: form.baseUrl, model: form.model.trim() || "list", ...providerOptionsOf(form) };
    return this.cached(config, providerOptionsOf(form), params.refresh === true);
  }

  /** The chat's: a saved profile's provider, with its URL, options and key. */
  async listFor(profile: Profile, refresh = false): Promise<ModelListAnswer> {
    const config: ProviderConfig = { ...(await this.store.config(profile)), model: profile.model || "list" };
    return this.cached(config, providerOptionsOf(profile), refresh);
  }

  private async cached(config: ProviderConfig, options: object, refresh: boolean): Promise<ModelListAnswer> {
    const cacheKey = [
      config.kind,
      config.baseUrl.trim(),
      JSON.stringify(options),
      createHash("sha256")
        .update(config.apiKey ?? "")
        .digest("hex"),
    ].join("\n");
    const cached = this.cache.get(cacheKey);
    if (cached && !refresh && this.now() - cached.at < CACHE_MS) return { ...cached.answer, source: cached.answer.source === "live" ? "cache" : cached.answer.source };
    const answer = await this.fetch(config);
    this.cache.set(cacheKey, { at: this.now(), answer });
    return answer;
  }

  private async fetch(config: ProviderConfig): Promise<ModelListAnswer> {
    try {
      const provider = createProvider(config);
      if (!provider.listModels) return { models: builtinRows(config.kind).map(view), source: "table" };
      const listed = await provider.listModels(AbortSignal.timeout(LIST_TIMEOUT_MS));
      return { models: modelRows(config.kind, listed.slice(0, MAX_ROWS)).map(view), source: "live" };
    } catch (err) {
      const failure = explainFailure(err, config, err instanceof Error && err.name === "TimeoutError" ? LIST_TIMEOUT_MS : undefined);
      throw new RequestError(failure.message, FIELD_OF[failure.problem]);
    }
  }
}
