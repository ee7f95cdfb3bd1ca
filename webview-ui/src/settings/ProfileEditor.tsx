import { useState } from "react";
import type { ProfileForm, ProfileView } from "../../../src/shared/protocol/settings";
import { useSaveRequest } from "./useSaveRequest";
import type { SettingsAsk } from "./model";

const KINDS = ["anthropic", "openai", "openai-compatible"] as const;
const PROTOCOLS = ["xml", "native", "auto"] as const;
/** The model overrides the form offers: window, output limit, prices (USD per million tokens). */
const NUMBERS = [
  ["contextWindow", "Context window (tokens)"],
  ["maxOutputTokens", "Max output (tokens)"],
  ["inputPrice", "Input price ($/M)"],
  ["outputPrice", "Output price ($/M)"],
  ["cacheReadPrice", "Cache read price ($/M)"],
  ["cacheWritePrice", "Cache write price ($/M)"],
] as const;
type NumberField = (typeof NUMBERS)[number][0];

function initialNumbers(profile: ProfileView | undefined): Record<NumberField, string> {
  const info = profile?.modelInfo ?? {};
  return Object.fromEntries(NUMBERS.map(([key]) => [key, typeof info[key] === "number" ? String(info[key]) : ""])) as Record<NumberField, string>;
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
  const { error, refuse, submit } = useSaveRequest(onDone);

  const save = () => {
    const modelInfo: NonNullable<ProfileForm["modelInfo"]> = {};
    for (const [key, label] of NUMBERS) {
      const text = numbers[key].trim();
      if (text === "") continue;
      const value = Number(text);
      if (!Number.isFinite(value)) {
        refuse("modelInfo", `${label} must be a number`);
        return;
      }
      modelInfo[key] = value;
    }
    const percent = condenseAt.trim() === "" ? undefined : Number(condenseAt);
    if (percent !== undefined && !(Number.isInteger(percent) && percent >= 0 && percent <= 100)) {
      refuse("autoCondensePercent", "auto-condense must be a whole number from 0 to 100");
      return;
    }
    if (!isDefault && name.trim() === "") {
      refuse("name", "a profile needs a name");
      return;
    }
    // Overrides the form does not show (tiers, supportsImages…) are kept as they were.
    const kept = Object.fromEntries(Object.entries(profile?.modelInfo ?? {}).filter(([key]) => !NUMBERS.some(([k]) => k === key)));
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
      <h3>{profile ? `Edit ${profile.name}` : "New profile"}</h3>
      <label>
        Name
        <input data-testid="field-name" value={isDefault ? "default" : name} disabled={isDefault} onChange={(e) => setName(e.target.value)} maxLength={64} />
      </label>
      {isDefault && <p className="ks-hint">The default profile is the kiln.provider.* settings.</p>}
      {fieldError("name")}
      <label>
        Provider
        <select data-testid="field-kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      {fieldError("kind")}
      <label>
        Base URL
        <input
          data-testid="field-baseUrl"
          value={baseUrl}
          placeholder={kind === "openai-compatible" ? "http://localhost:11434/v1" : "empty: the provider's default"}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </label>
      {fieldError("baseUrl")}
      <label>
        Model
        <input data-testid="field-model" value={model} placeholder="empty: the provider's default" onChange={(e) => setModel(e.target.value)} />
      </label>
      {fieldError("model")}
      <label>
        Tool protocol
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
        <legend>Model info (empty: what Kiln knows of the model)</legend>
        {NUMBERS.map(([key, label]) => (
          <label key={key}>
            {label}
            <input data-testid={`field-${key}`} inputMode="decimal" value={numbers[key]} onChange={(e) => setNumbers({ ...numbers, [key]: e.target.value })} />
          </label>
        ))}
      </fieldset>
      {fieldError("modelInfo")}
      {!isDefault && (
        <label>
          Auto-condense at % of the window (empty: the kiln.context.autoCondensePercent setting; 0: off)
          <input data-testid="field-autoCondensePercent" inputMode="numeric" value={condenseAt} onChange={(e) => setCondenseAt(e.target.value)} />
        </label>
      )}
      {fieldError("autoCondensePercent")}
      {error && !["name", "kind", "baseUrl", "model", "protocol", "modelInfo", "autoCondensePercent"].some((f) => error.field === f || error.field?.startsWith(`${f}.`)) && (
        <div className="ks-field-error" role="alert">
          {error.message}
        </div>
      )}
      <div className="ks-actions">
        <button type="submit" data-testid="save-profile">
          Save
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
