import * as l10n from "@vscode/l10n";
import { useEffect, useRef, useState } from "react";
import type { ConnectionCheck, ConnectionProblem, ModelList, WelcomeInfo, WelcomeKind, WelcomeSetup } from "../../src/shared/protocol/welcome";
import { RequestError } from "../../src/shared/protocol/requests";
import { request } from "./chatRequests";
import { send } from "./vscodeApi";
import "./welcome.css";

/** Not asked yet, on its way, or the answer. */
type Models = "idle" | "loading" | ModelList;
type Test = "idle" | "testing" | ConnectionCheck;
type Finish = { state: "idle" } | { state: "saving" } | { state: "failed"; message: string; field?: string };

/** Where a failure points: the field it is about, for its outline and its message. */
const FIELD_OF: Record<ConnectionProblem, "key" | "baseUrl" | "model" | undefined> = { key: "key", url: "baseUrl", model: "model", network: "baseUrl", other: undefined };

function failureText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The first thing a fresh install shows in the sidebar: pick a provider, give it a key (or see the
 * one found), pick a model from its list, test the connection, then chat. Nothing is saved until
 * "Start chatting"; the key then goes to VS Code's secret storage.
 */
export function Welcome({ info }: { info: WelcomeInfo }) {
  const [kind, setKind] = useState<WelcomeKind>(info.current.kind);
  const provider = info.providers.find((p) => p.kind === kind) ?? info.providers[0]!;
  const [baseUrl, setBaseUrl] = useState(info.current.baseUrl);
  const [key, setKey] = useState("");
  const [model, setModel] = useState(info.current.model || provider.defaultModel);
  const [models, setModels] = useState<Models>("idle");
  const [test, setTest] = useState<Test>("idle");
  const [finish, setFinish] = useState<Finish>({ state: "idle" });
  const hasKey = provider.storedKey || provider.envKey;
  const featured = info.providers.filter((p) => p.featured);
  const others = info.providers.filter((p) => !p.featured);
  // The one "Another provider" stands for: the picked kind when it is one of them.
  const [other, setOther] = useState<WelcomeKind | undefined>(others.find((p) => p.kind === kind)?.kind ?? others[0]?.kind);
  // The list can be asked for: with the key known, or of a server that needs none (once its URL is in, where it has no default).
  const canList = provider.needsKey ? hasKey : baseUrl.trim() !== "" || provider.defaultBaseUrl !== undefined;
  const form = (): WelcomeSetup => ({ kind, baseUrl: baseUrl.trim(), model: model.trim(), key: key.trim() });
  // Answers to an older form (another provider, another key) are dropped: only the newest counts.
  const generation = useRef(0);

  const loadModels = () => {
    const asked = ++generation.current;
    setModels("loading");
    request("welcome/models", form()).then(
      (list) => {
        if (asked !== generation.current) return;
        setModels(list);
        // Keep a model the list has; otherwise the provider's default, else its first.
        if (list.ok && list.models.length > 0 && !list.models.includes(model.trim())) {
          setModel(list.models.includes(provider.defaultModel) ? provider.defaultModel : list.models[0]!);
        }
      },
      (err: unknown) => asked === generation.current && setModels({ ok: false, problem: "other", message: failureText(err) }),
    );
  };

  // The list comes as soon as the provider can be asked: a key known, or a server's URL typed.
  useEffect(() => {
    if (canList) loadModels();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked again when the provider changes, not on each keystroke
  }, [kind]);

  const changed = () => {
    setTest("idle");
    setFinish({ state: "idle" });
  };
  const pickKind = (next: WelcomeKind) => {
    generation.current++;
    setKind(next);
    if (others.some((p) => p.kind === next)) setOther(next);
    setModels("idle");
    setModel(info.providers.find((p) => p.kind === next)?.defaultModel ?? "");
    changed();
  };
  const runTest = () => {
    setTest("testing");
    request("welcome/test", form()).then(setTest, (err: unknown) => setTest({ ok: false, problem: "other", message: failureText(err) }));
  };
  const start = () => {
    setFinish({ state: "saving" });
    // On success the host sends a new snapshot without the welcome: the chat replaces this page.
    request("welcome/finish", form()).catch((err: unknown) => setFinish({ state: "failed", message: failureText(err), ...(err instanceof RequestError && err.field ? { field: err.field } : {}) }));
  };

  const failedField = typeof test === "object" && !test.ok ? FIELD_OF[test.problem] : finish.state === "failed" ? finish.field : undefined;
  const invalid = (field: string) => (failedField === field ? { "aria-invalid": true as const, className: "invalid" } : {});
  const listed = typeof models === "object" && models.ok && models.models.length > 0 ? models.models : undefined;

  return (
    <form
      className="welcome"
      data-testid="welcome"
      aria-labelledby="welcome-heading"
      onSubmit={(event) => {
        event.preventDefault();
        start();
      }}
    >
      <h1 id="welcome-heading">{l10n.t("Welcome to Kiln")}</h1>
      <p className="welcome-lead">{l10n.t("Kiln works with your own model provider. Set it up once; you can change it any time in Kiln's settings.")}</p>

      <fieldset className="welcome-step">
        <legend>{l10n.t("1. Provider")}</legend>
        <div className="welcome-kinds" role="radiogroup" aria-label={l10n.t("Provider")}>
          {featured.map((p) => (
            <label key={p.kind} className={`welcome-kind${p.kind === kind ? " picked" : ""}`} data-testid={`welcome-kind-${p.kind}`}>
              <input type="radio" name="kind" value={p.kind} checked={p.kind === kind} onChange={() => pickKind(p.kind)} />
              <span className="welcome-kind-name">{p.label}</span>
              <span className="welcome-kind-hint">{p.hint}</span>
            </label>
          ))}
          {other !== undefined && (
            <div className={`welcome-kind${!provider.featured ? " picked" : ""}`} data-testid="welcome-kind-other">
              <input type="radio" name="kind" id="welcome-other-radio" value={other} checked={!provider.featured} onChange={() => pickKind(other)} />
              <label className="welcome-kind-name" htmlFor="welcome-other-radio">
                {l10n.t("Another provider")}
              </label>
              <select className="welcome-other" data-testid="welcome-other" aria-label={l10n.t("Another provider")} value={other} onChange={(e) => pickKind(e.target.value as WelcomeKind)}>
                {others.map((p) => (
                  <option key={p.kind} value={p.kind}>
                    {p.label}
                  </option>
                ))}
              </select>
              <span className="welcome-kind-hint">{(others.find((p) => p.kind === other) ?? others[0]!).hint}</span>
            </div>
          )}
        </div>
        <p className="welcome-note">
          {l10n.t("Amazon Bedrock, Google Vertex AI and Azure OpenAI are set up in Kiln's settings.")}{" "}
          <button type="button" className="link-button" data-testid="welcome-open-settings" onClick={() => send({ type: "chat/openSettings", section: "providers" })}>
            {l10n.t("Open settings")}
          </button>
        </p>
        {provider.asksBaseUrl && (
          <label className="welcome-field">
            {provider.defaultBaseUrl ? l10n.t("Base URL (empty: {0})", provider.defaultBaseUrl) : l10n.t("Base URL")}
            <input
              data-testid="welcome-baseUrl"
              value={baseUrl}
              placeholder={provider.defaultBaseUrl ?? "http://localhost:8000/v1"}
              spellCheck={false}
              onChange={(e) => {
                setBaseUrl(e.target.value);
                changed();
              }}
              onBlur={() => canList && loadModels()}
              {...invalid("baseUrl")}
            />
          </label>
        )}
      </fieldset>

      <fieldset className="welcome-step">
        <legend>{provider.needsKey ? l10n.t("2. API key") : l10n.t("2. API key (if the server needs one)")}</legend>
        {hasKey && (
          <p className="welcome-found" data-testid="welcome-key-found">
            <span className="codicon codicon-pass" aria-hidden="true" />{" "}
            {provider.storedKey ? l10n.t("A key is already stored for {0}.", provider.label) : l10n.t("Found {0} in the environment.", provider.envVar)} {l10n.t("Paste another to replace it.")}
          </p>
        )}
        <label className="welcome-field">
          <span className="visually-hidden">{l10n.t("API key")}</span>
          <input
            type="password"
            data-testid="welcome-key"
            value={key}
            autoComplete="off"
            spellCheck={false}
            placeholder={hasKey ? l10n.t("(using the key found)") : l10n.t("Paste your {0} key", provider.label)}
            onChange={(e) => {
              setKey(e.target.value);
              changed();
            }}
            onBlur={() => key.trim() !== "" && loadModels()}
            {...invalid("key")}
          />
        </label>
        <p className="welcome-note">{l10n.t("Kept in VS Code's secret storage, never in settings files or logs.")}</p>
      </fieldset>

      <fieldset className="welcome-step">
        <legend>{l10n.t("3. Model")}</legend>
        {listed ? (
          <label className="welcome-field">
            <span className="visually-hidden">{l10n.t("Model")}</span>
            <select
              data-testid="welcome-model"
              value={model}
              onChange={(e) => {
                setModel(e.target.value);
                changed();
              }}
              {...invalid("model")}
            >
              {!listed.includes(model) && model !== "" && <option value={model}>{model}</option>}
              {listed.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label className="welcome-field">
            <span className="visually-hidden">{l10n.t("Model")}</span>
            <input
              data-testid="welcome-model"
              value={model}
              spellCheck={false}
              placeholder={provider.defaultModel || l10n.t("the server's model id")}
              onChange={(e) => {
                setModel(e.target.value);
                changed();
              }}
              {...invalid("model")}
            />
          </label>
        )}
        <p className="welcome-note" data-testid="welcome-models-status" aria-live="polite">
          {models === "loading" && l10n.t("Loading the provider's models…")}
          {typeof models === "object" && models.ok && (models.models.length === 1 ? l10n.t("1 model listed.") : l10n.t("{0} models listed.", models.models.length))}
          {/* A failed test says the same, closer to the button: said once. */}
          {typeof models === "object" && !models.ok && !(typeof test === "object" && !test.ok) && models.message}
          {models === "idle" && provider.needsKey && !hasKey && l10n.t("The list loads once the key is in.")}
          {models === "idle" && !provider.needsKey && !canList && l10n.t("The list loads once the URL is in.")}
          {models === "idle" && canList && (
            <button type="button" className="link-button" onClick={loadModels}>
              {l10n.t("Load the list")}
            </button>
          )}
        </p>
      </fieldset>

      <div className="welcome-test">
        <button type="button" className="secondary" data-testid="welcome-test" disabled={test === "testing"} onClick={runTest}>
          <span className="codicon codicon-plug" aria-hidden="true" /> {l10n.t("Test connection")}
        </button>
        <div className="welcome-result" data-testid="welcome-result" role="status">
          {test === "testing" && l10n.t("Sending one tiny request…")}
          {typeof test === "object" && test.ok && (
            <span className="welcome-ok">
              <span className="codicon codicon-pass" aria-hidden="true" />{" "}
              {test.ms < 1000 ? l10n.t("Connected: {0} answered in {1} ms.", test.model, test.ms) : l10n.t("Connected: {0} answered in {1} s.", test.model, (test.ms / 1000).toFixed(1))}
            </span>
          )}
          {typeof test === "object" && !test.ok && (
            <span className="welcome-failed">
              <span className="codicon codicon-error" aria-hidden="true" /> {test.message}
              {test.detail && (
                <details>
                  <summary>{l10n.t("What the provider said")}</summary>
                  {test.detail}
                </details>
              )}
            </span>
          )}
        </div>
      </div>

      {finish.state === "failed" && (
        <p className="welcome-failed" role="alert" data-testid="welcome-error">
          {finish.message}
        </p>
      )}
      <div className="welcome-actions">
        <button type="submit" data-testid="welcome-start" disabled={finish.state === "saving"}>
          {l10n.t("Start chatting")}
        </button>
        <button type="button" className="link-button" data-testid="welcome-skip" onClick={() => void request("welcome/skip", {}).catch(() => undefined)}>
          {l10n.t("Skip for now")}
        </button>
      </div>
    </form>
  );
}
