import * as l10n from "@vscode/l10n";
import { useState } from "react";
import type { ProfileForm, ProfileView } from "../../../src/shared/protocol/settings";
import {
  FAMILY_OPTIONS,
  isProviderKind,
  isSelfHosted,
  PROVIDER_ENTRIES,
  PROVIDER_OPTIONS,
  providerEntry,
  takesReasoning,
  type ProviderEntry,
  type ProviderOption,
} from "../../../src/shared/providerCatalog";
import { isReasoningEffort, isThinkingBudget, REASONING_EFFORTS, THINKING_BUDGET, type ReasoningEffort } from "../../../src/shared/reasoning";
import { ModelPicker } from "./ModelPicker";
import { useSaveRequest } from "./useSaveRequest";
import type { SettingsAsk } from "./model";

const PROTOCOLS = ["xml", "native", "auto"] as const;
/** The model overrides the form offers: window, output limit, prices (USD per million tokens). */
const NUMBERS = ["contextWindow", "maxOutputTokens", "inputPrice", "outputPrice", "cacheReadPrice", "cacheWritePrice"] as const;
type NumberField = (typeof NUMBERS)[number];

/** The provider list in three groups, as a person looks for theirs: by vendor, by vendor behind the compatible API, or on their own machine. */
function providerGroups(): { label: string; entries: ProviderEntry[] }[] {
  return [
    { label: l10n.t("Providers"), entries: PROVIDER_ENTRIES.filter((e) => !e.preset && !isSelfHosted(e)) },
    { label: l10n.t("OpenAI-compatible vendors"), entries: PROVIDER_ENTRIES.filter((e) => e.preset) },
    { label: l10n.t("Local and self-hosted"), entries: PROVIDER_ENTRIES.filter(isSelfHosted) },
  ];
}

function optionLabel(option: ProviderOption, kind: string): string {
  switch (option) {
    case "region":
      return kind === "vertex" ? l10n.t("Location (empty: GOOGLE_CLOUD_LOCATION)") : l10n.t("AWS region (empty: AWS_REGION or the profile's)");
    case "awsProfile":
      return l10n.t("AWS profile (empty: the standard credential chain)");
    case "project":
      return l10n.t("Google Cloud project (empty: GOOGLE_CLOUD_PROJECT)");
    case "keyFile":
      return l10n.t("Service account key file (empty: Application Default Credentials)");
    case "apiVersion":
      return l10n.t("API version (empty: a recent GA version)");
  }
}

function effortLabel(effort: ReasoningEffort): string {
  switch (effort) {
    case "low":
      return l10n.t("Low effort");
    case "medium":
      return l10n.t("Medium effort");
    case "high":
      return l10n.t("High effort");
  }
}

/** What the provider makes of the setting, so the choice means something to the person making it. */
function reasoningHint(entry: ProviderEntry): string {
  switch (entry.family) {
    case "anthropic":
      return l10n.t("Claude thinks within a token budget: low, medium and high are 2,048, 8,192 and 24,576 tokens.");
    case "bedrock":
      return l10n.t("Claude thinks within a token budget: low, medium and high are 2,048, 8,192 and 24,576 tokens. Other Bedrock models are sent none.");
    case "vertex":
      return l10n.t("Claude thinks within a token budget (low, medium and high are 2,048, 8,192 and 24,576 tokens); Gemini 3 takes a level, Gemini 2.5 a budget.");
    case "gemini":
      return l10n.t("Gemini 3 takes a thinking level, Gemini 2.5 a token budget; each is turned into the other.");
    case "ollama":
      return l10n.t("gpt-oss takes the effort; other thinking models only turn thinking on.");
    default:
      switch (entry.quirks?.reasoning) {
        case "openrouter":
          return l10n.t("OpenRouter passes a budget to the models that take one (Claude, Gemini) and an effort to the others.");
        case "qwen":
          return l10n.t("Sent as DashScope's thinking budget: low, medium and high are 2,048, 8,192 and 24,576 tokens.");
        case "zai":
          return l10n.t("Z.ai only turns thinking on; the level is the model's own.");
        default:
          return l10n.t("Sent as the model's reasoning effort; a budget becomes the nearest effort. Models that do not reason may refuse it.");
      }
  }
}

function baseUrlHint(entry: ProviderEntry | undefined): string {
  if (entry?.kind === "openai-compatible") return "http://localhost:11434/v1";
  if (entry?.family === "azure") return "https://NAME.openai.azure.com";
  return entry?.defaultBaseUrl ? l10n.t("empty: {0}", entry.defaultBaseUrl) : l10n.t("empty: the provider's default");
}

function modelHint(entry: ProviderEntry | undefined): string {
  if (entry?.family === "azure") return l10n.t("the deployment's name");
  if (entry && !entry.defaultModel) return l10n.t("required: the model id the server uses");
  return entry ? l10n.t("empty: {0}", entry.defaultModel) : l10n.t("empty: the provider's default");
}

/** A model override's label; translated when drawn (the bundle is set after the modules load). */
function numberLabel(key: NumberField): string {
  switch (key) {
    case "contextWindow":
      return l10n.t("Context window (tokens)");
    case "maxOutputTokens":
      return l10n.t("Max output (tokens)");
    case "inputPrice":
      return l10n.t("Input price ($/M)");
    case "outputPrice":
      return l10n.t("Output price ($/M)");
    case "cacheReadPrice":
      return l10n.t("Cache read price ($/M)");
    case "cacheWritePrice":
      return l10n.t("Cache write price ($/M)");
  }
}

/** The page's refusal of a box that is not a number: one whole sentence per box. */
function notANumber(key: NumberField): string {
  switch (key) {
    case "contextWindow":
      return l10n.t("Context window (tokens) must be a number");
    case "maxOutputTokens":
      return l10n.t("Max output (tokens) must be a number");
    case "inputPrice":
      return l10n.t("Input price ($/M) must be a number");
    case "outputPrice":
      return l10n.t("Output price ($/M) must be a number");
    case "cacheReadPrice":
      return l10n.t("Cache read price ($/M) must be a number");
    case "cacheWritePrice":
      return l10n.t("Cache write price ($/M) must be a number");
  }
}

function initialNumbers(profile: ProfileView | undefined): Record<NumberField, string> {
  const info = profile?.modelInfo ?? {};
  return Object.fromEntries(NUMBERS.map((key) => [key, typeof info[key] === "number" ? String(info[key]) : ""])) as Record<NumberField, string>;
}

/**
 * Add or edit one profile. Checks what it can here (a name, numbers that are numbers); the host
 * checks the rest and answers with the field at fault, shown under that field.
 */
export function ProfileEditor({ profile, ask, onDone }: { profile: ProfileView | undefined; ask: SettingsAsk; onDone(): void }) {
  const isDefault = profile?.source === "legacy";
  const [name, setName] = useState(profile?.name ?? "");
  const [kind, setKind] = useState(profile?.kind ?? "openai-compatible");
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? "");
  const [model, setModel] = useState(profile?.model ?? "");
  const [protocol, setProtocol] = useState(profile?.protocol ?? "xml");
  const [numbers, setNumbers] = useState(initialNumbers(profile));
  const [condenseAt, setCondenseAt] = useState(profile?.autoCondensePercent?.toString() ?? "");
  const [options, setOptions] = useState<Record<ProviderOption, string>>(Object.fromEntries(PROVIDER_OPTIONS.map((o) => [o, profile?.[o] ?? ""])) as Record<ProviderOption, string>);
  const [reasoning, setReasoning] = useState<ReasoningEffort | "budget" | "">(
    profile?.thinkingBudget !== undefined ? "budget" : isReasoningEffort(profile?.reasoningEffort) ? profile.reasoningEffort : "",
  );
  const [budget, setBudget] = useState(profile?.thinkingBudget?.toString() ?? "");
  const entry = isProviderKind(kind) ? providerEntry(kind) : undefined;
  const shownOptions = entry ? FAMILY_OPTIONS[entry.family] : [];
  const showsReasoning = entry !== undefined && takesReasoning(entry);
  const { error, refuse, submit } = useSaveRequest(onDone);

  const save = () => {
    const modelInfo: NonNullable<ProfileForm["modelInfo"]> = {};
    for (const key of NUMBERS) {
      const text = numbers[key].trim();
      if (text === "") continue;
      const value = Number(text);
      if (!Number.isFinite(value)) {
        refuse("modelInfo", notANumber(key));
        return;
      }
      modelInfo[key] = value;
    }
    const percent = condenseAt.trim() === "" ? undefined : Number(condenseAt);
    if (percent !== undefined && !(Number.isInteger(percent) && percent >= 0 && percent <= 100)) {
      refuse("autoCondensePercent", l10n.t("auto-condense must be a whole number from 0 to 100"));
      return;
    }
    const thinkingBudget = showsReasoning && reasoning === "budget" ? Number(budget.trim()) : undefined;
    if (thinkingBudget !== undefined && !isThinkingBudget(thinkingBudget)) {
      refuse("thinkingBudget", l10n.t("the thinking budget must be a whole number of tokens from {0} to {1}", THINKING_BUDGET.min, THINKING_BUDGET.max));
      return;
    }
    if (!isDefault && name.trim() === "") {
      refuse("name", l10n.t("a profile needs a name"));
      return;
    }
    // Overrides the form does not show (tiers, supportsImages…) are kept as they were.
    const kept = Object.fromEntries(Object.entries(profile?.modelInfo ?? {}).filter(([key]) => !NUMBERS.some((k) => k === key)));
    submit(
      ask("settings/saveProfile", {
        ...(profile ? { original: profile.name } : {}),
        profile: {
          name: isDefault ? "default" : name,
          kind,
          baseUrl,
          model,
          protocol,
          modelInfo: { ...kept, ...modelInfo },
          // Only the options this provider has: switching from Bedrock to Anthropic leaves no stray region behind.
          ...Object.fromEntries(shownOptions.map((o) => [o, options[o].trim()])),
          ...(showsReasoning && isReasoningEffort(reasoning) ? { reasoningEffort: reasoning } : {}),
          ...(thinkingBudget !== undefined ? { thinkingBudget } : {}),
          ...(percent !== undefined && !isDefault ? { autoCondensePercent: percent } : {}),
        },
      }),
    );
  };

  const fieldError = (field: string) =>
    error && (error.field === field || error.field?.startsWith(`${field}.`)) ? (
      <div className="ks-field-error" role="alert" data-testid={`error-${field}`}>
        {error.message}
      </div>
    ) : null;

  return (
    <form
      className="ks-editor"
      data-testid="profile-editor"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <h3>{profile ? l10n.t("Edit {0}", profile.name) : l10n.t("New profile")}</h3>
      <label>
        {l10n.t("Name")}
        <input data-testid="field-name" value={isDefault ? "default" : name} disabled={isDefault} onChange={(e) => setName(e.target.value)} maxLength={64} />
      </label>
      {isDefault && <p className="ks-hint">{l10n.t("The default profile is the kiln.provider.* settings.")}</p>}
      {fieldError("name")}
      <label>
        {l10n.t("Provider")}
        <select data-testid="field-kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          {providerGroups().map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.entries.map((e) => (
                <option key={e.kind} value={e.kind}>
                  {e.kind === "openai-compatible" ? l10n.t("OpenAI-compatible (any URL)") : e.label}
                </option>
              ))}
            </optgroup>
          ))}
          {!entry && <option value={kind}>{kind}</option>}
        </select>
      </label>
      {fieldError("kind")}
      <label>
        {l10n.t("Base URL")}
        <input data-testid="field-baseUrl" value={baseUrl} placeholder={baseUrlHint(entry)} onChange={(e) => setBaseUrl(e.target.value)} />
      </label>
      {fieldError("baseUrl")}
      <label>
        {l10n.t("Model")}
        <input data-testid="field-model" value={model} placeholder={modelHint(entry)} onChange={(e) => setModel(e.target.value)} />
      </label>
      <ModelPicker
        form={() => ({ name: isDefault ? "default" : name, kind, baseUrl, model, protocol, ...Object.fromEntries(shownOptions.map((o) => [o, options[o].trim()])) })}
        {...(profile ? { original: profile.name } : {})}
        onPick={setModel}
      />
      {fieldError("model")}
      {shownOptions.map((option) => (
        <div key={option}>
          <label>
            {optionLabel(option, kind)}
            <input data-testid={`field-${option}`} value={options[option]} onChange={(e) => setOptions({ ...options, [option]: e.target.value })} />
          </label>
          {fieldError(option)}
        </div>
      ))}
      {showsReasoning && (
        <div className="ks-reasoning">
          <label>
            {l10n.t("Reasoning")}
            <select data-testid="field-reasoning" value={reasoning} onChange={(e) => setReasoning(e.target.value as ReasoningEffort | "budget" | "")}>
              <option value="">{l10n.t("The model's default")}</option>
              {REASONING_EFFORTS.map((effort) => (
                <option key={effort} value={effort}>
                  {effortLabel(effort)}
                </option>
              ))}
              <option value="budget">{l10n.t("Thinking budget (tokens)")}</option>
            </select>
          </label>
          {reasoning === "budget" && (
            <label>
              {l10n.t("Thinking budget (tokens, {0} to {1})", THINKING_BUDGET.min, THINKING_BUDGET.max)}
              <input data-testid="field-thinkingBudget" inputMode="numeric" value={budget} placeholder="16000" onChange={(e) => setBudget(e.target.value)} />
            </label>
          )}
          {reasoning !== "" && <p className="ks-hint">{reasoningHint(entry)}</p>}
          {fieldError("reasoningEffort")}
          {fieldError("thinkingBudget")}
        </div>
      )}
      <label>
        {l10n.t("Tool protocol")}
        <select data-testid="field-protocol" value={protocol} onChange={(e) => setProtocol(e.target.value)}>
          {PROTOCOLS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      {fieldError("protocol")}
      <fieldset className="ks-numbers">
        <legend>{l10n.t("Model info (empty: what Kiln knows of the model)")}</legend>
        {NUMBERS.map((key) => (
          <label key={key}>
            {numberLabel(key)}
            <input data-testid={`field-${key}`} inputMode="decimal" value={numbers[key]} onChange={(e) => setNumbers({ ...numbers, [key]: e.target.value })} />
          </label>
        ))}
      </fieldset>
      {fieldError("modelInfo")}
      {!isDefault && (
        <label>
          {l10n.t("Auto-condense at % of the window (empty: the kiln.context.autoCondensePercent setting; 0: off)")}
          <input data-testid="field-autoCondensePercent" inputMode="numeric" value={condenseAt} onChange={(e) => setCondenseAt(e.target.value)} />
        </label>
      )}
      {fieldError("autoCondensePercent")}
      {error &&
        !["name", "kind", "baseUrl", "model", "protocol", "modelInfo", "autoCondensePercent", "reasoningEffort", "thinkingBudget", ...shownOptions].some(
          (f) => error.field === f || error.field?.startsWith(`${f}.`),
        ) && (
          <div className="ks-field-error" role="alert">
            {error.message}
          </div>
        )}
      <div className="ks-actions">
        <button type="submit" data-testid="save-profile">
          {l10n.t("Save")}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {l10n.t("Cancel")}
        </button>
      </div>
    </form>
  );
}
