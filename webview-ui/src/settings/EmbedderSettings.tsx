import * as l10n from "@vscode/l10n";
import { useEffect, useState } from "react";
import { EMBEDDER_HINTS, EMBEDDER_KINDS, type EmbedderKind } from "../../../src/shared/embedders";
import type { CodeIndexView, EmbedderForm } from "../../../src/shared/protocol/settings";
import { FieldError } from "./FieldError";
import type { Result, SettingsAsk } from "./model";

type Settings = NonNullable<CodeIndexView["embedderSettings"]>;

function kindLabel(kind: EmbedderForm["kind"]): string {
  const labels: Record<EmbedderForm["kind"], string> = {
    none: l10n.t("None: rank by words alone"),
    openai: "OpenAI",
    "openai-compatible": l10n.t("OpenAI-compatible (/v1/embeddings)"),
    mistral: "Mistral",
    ollama: "Ollama",
    gemini: "Google Gemini",
    bedrock: "Amazon Bedrock",
  };
  return labels[kind];
}

/**
 * The embedder behind search by meaning, as a form: which service, its model, endpoint, region (for
 * Bedrock) and key. The key is written to VS Code's secret storage and never shown again; the host
 * checks the whole as the index would use it and names the field at fault.
 */
export function EmbedderSettings({ settings, ask }: { settings: Settings; ask: SettingsAsk }) {
  const [form, setForm] = useState<Omit<EmbedderForm, "key">>(settings);
  const [key, setKey] = useState("");
  const [answer, setAnswer] = useState<Result | undefined>();
  // A change made elsewhere (settings.json, another window) replaces what the form shows.
  useEffect(() => setForm({ kind: settings.kind, model: settings.model, baseUrl: settings.baseUrl, region: settings.region }), [settings.kind, settings.model, settings.baseUrl, settings.region]);
  const hints = form.kind === "none" ? undefined : EMBEDDER_HINTS[form.kind as EmbedderKind];
  const save = async (removeKey = false) => {
    const result = await ask("settings/setEmbedder", { ...form, ...(removeKey ? { key: "" } : key !== "" && { key }) });
    setAnswer(result);
    if (result.ok) setKey("");
  };
  return (
    <form
      className="ks-limits"
      data-testid="embedder-form"
      aria-label={l10n.t("Embedder")}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        {l10n.t("Embedder")}
        <select data-testid="embedder-kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as EmbedderForm["kind"], model: "", baseUrl: "" })}>
          {(["none", ...EMBEDDER_KINDS] as const).map((kind) => (
            <option key={kind} value={kind}>
              {kindLabel(kind)}
            </option>
          ))}
        </select>
      </label>
      <FieldError prefix="embedder" result={answer} field="kind" />
      {hints && (
        <>
          <label>
            {l10n.t("Model")}
            <input data-testid="embedder-model" value={form.model} placeholder={hints.model} onChange={(e) => setForm({ ...form, model: e.target.value })} />
          </label>
          <FieldError prefix="embedder" result={answer} field="model" />
          <label>
            {l10n.t("Base URL (empty: the service's own)")}
            <input data-testid="embedder-baseUrl" value={form.baseUrl} placeholder={hints.baseUrl ?? ""} onChange={(e) => setForm({ ...form, baseUrl: e.target.value })} />
          </label>
          <FieldError prefix="embedder" result={answer} field="baseUrl" />
          {hints.region && (
            <label>
              {l10n.t("AWS region (empty: AWS_REGION or the profile's)")}
              <input data-testid="embedder-region" value={form.region} placeholder="us-east-1" onChange={(e) => setForm({ ...form, region: e.target.value })} />
            </label>
          )}
          {hints.key !== "none" && (
            <label>
              {settings.hasKey ? l10n.t("API key (one is saved; type to replace it)") : hints.key === "required" ? l10n.t("API key") : l10n.t("API key (if the service asks for one)")}
              <input data-testid="embedder-key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
            </label>
          )}
          <FieldError prefix="embedder" result={answer} field="key" />
        </>
      )}
      <div className="ks-actions">
        <button type="submit" data-testid="embedder-save">
          {l10n.t("Save embedder")}
        </button>
        {settings.hasKey && (
          <button type="button" className="secondary" data-testid="embedder-remove-key" onClick={() => void save(true)}>
            {l10n.t("Remove the saved key")}
          </button>
        )}
      </div>
      {answer?.ok && (
        <p className="ks-hint" role="status" data-testid="embedder-saved">
          {answer.message}
        </p>
      )}
    </form>
  );
}
