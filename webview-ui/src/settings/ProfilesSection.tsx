import * as l10n from "@vscode/l10n";
import { useCallback, useState } from "react";
import type { ProfileView } from "../../../src/shared/protocol/settings";
import { isProviderKind, providerEntry } from "../../../src/shared/providerCatalog";
import type { SettingsAsk } from "./model";
import { useLatestAnswer } from "./useSaveRequest";
import { ConfirmBar } from "./ConfirmBar";
import { ProfileEditor } from "./ProfileEditor";

/** A provider by its product name; the compatible kind is a description, so in the page's language. */
function kindLabel(kind: string): string {
  if (kind === "openai-compatible") return l10n.t("OpenAI-compatible");
  return isProviderKind(kind) ? providerEntry(kind).label : kind;
}

/** Sets or removes a key. The field is a password box, emptied once sent; the key never comes back. */
function KeyEntry({ profile, ask }: { profile: ProfileView; ask: SettingsAsk }) {
  const [key, setKey] = useState("");
  const [answer, track] = useLatestAnswer();
  const submit = (value: string) => {
    track(ask("settings/setKey", { name: profile.name, key: value }));
    setKey("");
  };
  return (
    <div className="ks-key">
      <span className={profile.hasKey ? "ks-badge ok" : "ks-badge"} data-testid="key-state">
        {profile.hasKey ? l10n.t("key set") : l10n.t("no key")}
      </span>
      <input
        type="password"
        autoComplete="off"
        aria-label={l10n.t("API key for {0}", profile.name)}
        placeholder={profile.hasKey ? l10n.t("Replace the key") : l10n.t("Paste the API key")}
        value={key}
        onChange={(e) => setKey(e.target.value)}
      />
      <button type="button" disabled={key.trim() === ""} onClick={() => submit(key)}>
        {l10n.t("Save key")}
      </button>
      {profile.hasKey && (
        <button type="button" className="secondary" onClick={() => submit("")}>
          {l10n.t("Remove key")}
        </button>
      )}
      {answer && !answer.ok && (
        <div className="ks-field-error" role="alert">
          {answer.message}
        </div>
      )}
    </div>
  );
}

/** The profile's reasoning, where it sets one: visible in the list, not only in the editor. */
function reasoningNote(p: ProfileView): string {
  if (p.thinkingBudget !== undefined) return ` · ${l10n.t("thinking {0} tokens", p.thinkingBudget.toLocaleString("en-US"))}`;
  switch (p.reasoningEffort) {
    case "low":
      return ` · ${l10n.t("low reasoning effort")}`;
    case "medium":
      return ` · ${l10n.t("medium reasoning effort")}`;
    case "high":
      return ` · ${l10n.t("high reasoning effort")}`;
    default:
      return "";
  }
}

export function ProfilesSection({ profiles, active, ask }: { profiles: ProfileView[]; active: string; ask: SettingsAsk }) {
  // undefined: no form; null: a new profile; a name: that profile's form.
  const [editing, setEditing] = useState<string | null | undefined>(undefined);
  const [confirming, setConfirming] = useState<string | undefined>();
  const close = useCallback(() => setEditing(undefined), []);
  const edited = typeof editing === "string" ? profiles.find((p) => p.name === editing) : undefined;

  return (
    <section className="ks-section" aria-labelledby="ks-profiles">
      <h2 id="ks-profiles">{l10n.t("Provider profiles")}</h2>
      <p className="ks-hint">
        {l10n.t("The active profile serves new tasks; a mode can pin its own (below).")} {l10n.t("Keys stay in VS Code's secret storage.")}
      </p>
      <ul className="ks-list">
        {profiles.map((p) => (
          <li key={p.name} className="ks-item" data-testid="profile" data-name={p.name}>
            <div className="ks-item-head">
              <strong>{p.name}</strong>
              {p.name === active && <span className="ks-badge ok">{l10n.t("active")}</span>}
              <span className="ks-muted">
                {kindLabel(p.kind)}
                {p.model ? ` · ${p.model}` : ""}
                {p.baseUrl ? ` · ${p.baseUrl}` : ""} · {p.protocol}
                {reasoningNote(p)}
              </span>
            </div>
            <KeyEntry profile={p} ask={ask} />
            <div className="ks-actions">
              <button type="button" className="secondary" onClick={() => setEditing(p.name)}>
                {l10n.t("Edit")}
              </button>
              <button type="button" className="secondary" disabled={p.name === active} onClick={() => void ask("settings/setActive", { name: p.name })}>
                {l10n.t("Make active")}
              </button>
              {p.source !== "legacy" && (
                <button type="button" className="secondary danger" data-testid="delete-profile" onClick={() => setConfirming(p.name)}>
                  {l10n.t("Delete")}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {confirming !== undefined && (
        <ConfirmBar
          text={l10n.t("Delete profile {0} and its key?", confirming)}
          onConfirm={() => {
            void ask("settings/deleteProfile", { name: confirming });
            setConfirming(undefined);
          }}
          onCancel={() => setConfirming(undefined)}
        />
      )}
      {editing === undefined ? (
        <button type="button" data-testid="add-profile" onClick={() => setEditing(null)}>
          {l10n.t("Add profile")}
        </button>
      ) : (
        <ProfileEditor key={editing ?? "new"} profile={edited} ask={ask} onDone={close} />
      )}
    </section>
  );
}
