import * as l10n from "@vscode/l10n";
import { useMemo, useRef, useState } from "react";
import { RequestError } from "../../../src/shared/protocol/requests";
import type { ModelListAnswer, ProfileForm } from "../../../src/shared/protocol/settings";
import { filterModels, formatPrice, formatTokens } from "../../../src/shared/modelList";
import { settingsRequester } from "./api";

/** Rows drawn at once: a list of 500 stays quick to draw and to read; the search narrows it. */
const SHOWN = 100;

type Loaded = { state: "idle" } | { state: "loading" } | { state: "failed"; message: string } | ({ state: "ready" } & ModelListAnswer);

/**
 * The profile editor's model picker: asks the host for the list of the provider the form is set to
 * (with the form's URL and the profile's key), then searches it as the user types. A pick fills the
 * model field; the field stays free text, for ids a list does not show.
 */
export function ModelPicker({ form, original, onPick }: { form: () => ProfileForm; original?: string; onPick(id: string): void }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "idle" });
  const [query, setQuery] = useState("");
  const asked = useRef(0);

  const load = (refresh: boolean) => {
    const generation = ++asked.current;
    setLoaded({ state: "loading" });
    settingsRequester.request("settings/listModels", { ...(original ? { original } : {}), profile: form(), ...(refresh ? { refresh } : {}) }).then(
      (answer) => generation === asked.current && setLoaded({ state: "ready", ...answer }),
      (err: unknown) => generation === asked.current && setLoaded({ state: "failed", message: err instanceof RequestError || err instanceof Error ? err.message : String(err) }),
    );
  };

  const shown = useMemo(() => (loaded.state === "ready" ? filterModels(loaded.models, query) : []), [loaded, query]);

  if (loaded.state === "idle") {
    return (
      <button type="button" className="secondary ks-browse" data-testid="browse-models" onClick={() => load(false)}>
        {l10n.t("Browse models")}
      </button>
    );
  }
  return (
    <div className="ks-model-picker" data-testid="model-picker">
      <div className="ks-model-search">
        <input
          data-testid="model-search"
          aria-label={l10n.t("Search models")}
          placeholder={l10n.t("Search models")}
          value={query}
          autoFocus
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") setLoaded({ state: "idle" });
            if (e.key === "Enter") {
              e.preventDefault();
              if (shown[0]) {
                onPick(shown[0].id);
                setLoaded({ state: "idle" });
              }
            }
          }}
        />
        <button type="button" className="secondary" data-testid="refresh-models" onClick={() => load(true)} disabled={loaded.state === "loading"}>
          {l10n.t("Refresh")}
        </button>
        <button type="button" className="secondary" onClick={() => setLoaded({ state: "idle" })}>
          {l10n.t("Close")}
        </button>
      </div>
      {loaded.state === "loading" && <p className="ks-hint">{l10n.t("Asking the provider for its models…")}</p>}
      {loaded.state === "failed" && (
        <p className="ks-field-error" role="alert" data-testid="models-error">
          {loaded.message}
        </p>
      )}
      {loaded.state === "ready" && (
        <>
          <p className="ks-hint" data-testid="models-count">
            {loaded.source === "table"
              ? l10n.t("{0} models Kiln knows (this provider publishes no list)", loaded.models.length)
              : query.trim()
                ? l10n.t("{0} of {1} models match", shown.length, loaded.models.length)
                : l10n.t("{0} models; prices are USD per million tokens, in / out", loaded.models.length)}
          </p>
          <ul className="ks-model-list" role="listbox" aria-label={l10n.t("Models")}>
            {shown.slice(0, SHOWN).map((m) => (
              <li
                key={m.id}
                role="option"
                aria-selected={false}
                tabIndex={0}
                data-testid="model-option"
                data-model={m.id}
                onClick={() => {
                  onPick(m.id);
                  setLoaded({ state: "idle" });
                }}
                onKeyDown={(e) => {
                  if (e.key !== "Enter" && e.key !== " ") return;
                  e.preventDefault();
                  onPick(m.id);
                  setLoaded({ state: "idle" });
                }}
              >
                <span className="ks-model-name">{m.name ?? m.id}</span>
                {m.name && <span className="ks-model-id">{m.id}</span>}
                <span className="ks-model-facts">
                  <span title={l10n.t("Context window")}>{m.contextWindow ? formatTokens(m.contextWindow) : "?"}</span>
                  <span title={l10n.t("Price per million tokens, in / out")}>
                    {formatPrice(m.inputPrice, l10n.t("free"))} / {formatPrice(m.outputPrice, l10n.t("free"))}
                  </span>
                  {m.tools && <span className="ks-badge">{l10n.t("tools")}</span>}
                  {m.vision && <span className="ks-badge">{l10n.t("vision")}</span>}
                </span>
              </li>
            ))}
          </ul>
          {shown.length > SHOWN && <p className="ks-hint">{l10n.t("{0} more: type to narrow the list", shown.length - SHOWN)}</p>}
        </>
      )}
    </div>
  );
}
