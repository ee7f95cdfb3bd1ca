import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { checkConnection, listModels } from "../../../core/llm/connectionCheck";
import { API_KEY_ENV, apiKeyFromEnv } from "../../../core/llm/keys";
import { apiKeySecretName, DEFAULT_MODELS, PROVIDER_KINDS, type ProviderConfig, type ProviderKind } from "../../../core/llm/types";
import type { Logger } from "../../../core/ports";
import { Emitter } from "../../../shared/disposable";
import type { ChatRequests } from "../../../shared/protocol/messages";
import { RequestError } from "../../../shared/protocol/requests";
import { WELCOME_KINDS, welcomeNeeds, welcomeProviderText, type WelcomeInfo, type WelcomeKind, type WelcomeProvider, type WelcomeSetup as SetupForm } from "../../../shared/protocol/welcome";
import { providerEntry } from "../../../shared/providerCatalog";
import type { RequestRouter } from "../requestRouter";
import { KILN, kilnConfiguration, rawSetting } from "./kilnSettings";
import type { ProfileStore } from "./profileStore";
import { DEFAULT_PROFILE, validateProfile } from "./profiles";
import { readLegacySettings, resolveProfileConfig } from "./providerConfig";

/** Set once the welcome was finished or skipped: it never comes back on its own. */
export const WELCOME_DONE_KEY = "kiln.welcome.done";

/** What decides whether a window opens on the welcome rather than the chat. */
export interface WelcomeFacts {
  /** Finished or skipped before. */
  done: boolean;
  /** Kiln: Set Up a Provider asked for it. */
  asked: boolean;
  /** Someone set kiln.provider.* or kiln.profiles (by hand, by a script, by `npm start`). */
  configured: boolean;
}

/** A fresh install (nothing set up, never dismissed) or an explicit ask shows the welcome. */
export function needsWelcome(facts: WelcomeFacts): boolean {
  return facts.asked || (!facts.done && !facts.configured);
}

function setAnywhere(key: string): boolean {
  const seen = kilnConfiguration().inspect(key);
  return seen !== undefined && [seen.globalValue, seen.workspaceValue, seen.workspaceFolderValue].some((value) => value !== undefined);
}

/**
 * The first-run welcome's host side: whether it shows, what it offers, and its requests (models,
 * test, finish, skip). Finishing writes the default profile (the kiln.provider.* settings) and its
 * key, and makes that profile the active one, so the chat uses exactly what was tested.
 */
export class WelcomeSetup implements vscode.Disposable {
  private readonly changed = new Emitter<void>();
  /** The welcome started or ended: chats show the new state. */
  readonly onDidChange = this.changed.event;
  private asked = false;
  /** Kinds with a key in SecretStorage; read at start and on each change, so the snapshot need not wait. */
  private storedKeys = new Set<ProviderKind>();
  private readonly secretListener: vscode.Disposable;

  constructor(
    private readonly memento: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly profiles: ProfileStore,
    private readonly logger: Logger,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
    this.secretListener = secrets.onDidChange(() => void this.readStoredKeys());
    void this.readStoredKeys();
  }

  private async readStoredKeys(): Promise<void> {
    const stored = new Set<ProviderKind>();
    for (const kind of PROVIDER_KINDS) if (await this.secrets.get(apiKeySecretName(kind))) stored.add(kind);
    this.storedKeys = stored;
  }

  /** What the welcome shows, or undefined when the chat should. */
  info(): WelcomeInfo | undefined {
    const { provider, profiles } = KILN;
    const configured = ["kind", "baseUrl", "model"].some((field) => setAnywhere(`provider.${field}`)) || setAnywhere(profiles.list.key);
    if (!needsWelcome({ done: this.memento.get<boolean>(WELCOME_DONE_KEY) === true, asked: this.asked, configured })) return undefined;
    const kind = rawSetting(provider.kind);
    const text = (value: unknown) => (typeof value === "string" ? value : "");
    return {
      providers: WELCOME_KINDS.map((k): WelcomeProvider => ({
        kind: k,
        ...welcomeProviderText(k),
        envVar: API_KEY_ENV[k] ?? "",
        envKey: apiKeyFromEnv(k, this.env) !== undefined,
        storedKey: this.storedKeys.has(k),
        defaultModel: DEFAULT_MODELS[k],
        ...welcomeNeeds(k),
      })),
      current: {
        kind: WELCOME_KINDS.includes(kind as WelcomeKind) ? (kind as WelcomeKind) : "anthropic",
        baseUrl: text(rawSetting(provider.baseUrl)),
        model: text(rawSetting(provider.model)),
      },
    };
  }

  /** Kiln: Set Up a Provider: the welcome again, whatever was set up before. */
  show(): void {
    this.asked = true;
    this.changed.fire();
  }

  /** Registers the welcome's requests on one chat page. */
  connect(requests: RequestRouter<ChatRequests>): vscode.Disposable {
    const registered = [
      requests.onRequest("welcome/models", async (form) => listModels(await this.configFor(form))),
      requests.onRequest("welcome/test", async (form) => {
        const result = await checkConnection(await this.configFor(form));
        this.logger.info(`Welcome: test connection to ${form.kind} ${result.ok ? "succeeded" : `failed (${result.problem})`}`);
        return result;
      }),
      requests.onRequest("welcome/finish", (form) => this.finish(form)),
      requests.onRequest("welcome/skip", async () => {
        await this.end();
        return { message: l10n.t("Set up a provider any time with Kiln: Set Up a Provider.") };
      }),
    ];
    return vscode.Disposable.from(...registered);
  }

  /** The form's settings, with the key typed, else what the default profile would use (stored, then the environment's). */
  private async configFor(form: SetupForm): Promise<ProviderConfig> {
    const profile = { id: DEFAULT_PROFILE, name: DEFAULT_PROFILE, kind: form.kind, baseUrl: form.baseUrl, model: form.model, protocol: "xml" as const, source: "legacy" as const };
    const config = await resolveProfileConfig(this.secrets, profile, this.logger);
    return form.key ? { ...config, apiKey: form.key } : config;
  }

  private async finish(form: SetupForm): Promise<{ message: string }> {
    const legacy = readLegacySettings();
    const checked = validateProfile({ name: DEFAULT_PROFILE, kind: form.kind, baseUrl: form.baseUrl, model: form.model, protocol: legacy.protocol ?? "xml" }, true);
    if (!checked.ok) throw new RequestError(checked.message, checked.field);
    const profile = checked.profile;
    if (form.key) {
      const refused = await this.profiles.setKey(profile, form.key);
      if (refused) throw new RequestError(refused, "key");
    } else if (providerEntry(form.kind).needsKey && !(await this.configFor(form)).apiKey) {
      throw new RequestError(l10n.t("{0} needs a key: paste one, or set {1} in the environment VS Code starts from.", welcomeProviderText(form.kind).label, API_KEY_ENV[form.kind] ?? ""), "key");
    }
    const kiln = kilnConfiguration();
    const global = vscode.ConfigurationTarget.Global;
    const { provider, profiles } = KILN;
    await kiln.update(provider.kind.key, profile.kind, global);
    await kiln.update(provider.baseUrl.key, profile.baseUrl || undefined, global);
    await kiln.update(provider.model.key, profile.model || undefined, global);
    // What was just set up is what the chat uses, even where another profile was active.
    if (rawSetting(profiles.active) !== undefined) await kiln.update(profiles.active.key, undefined, global);
    this.logger.info(`Welcome: set up ${profile.kind}${profile.model ? ` (${profile.model})` : ""}`);
    await this.end();
    const label = welcomeProviderText(form.kind).label;
    return { message: profile.model ? l10n.t("Kiln uses {0}, {1}.", label, profile.model) : l10n.t("Kiln uses {0}.", label) };
  }

  private async end(): Promise<void> {
    this.asked = false;
    await this.memento.update(WELCOME_DONE_KEY, true);
    this.changed.fire();
  }

  dispose(): void {
    this.secretListener.dispose();
    this.changed.dispose();
  }
}
