import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { PROVIDER_OPTIONS } from "../../../shared/providerCatalog";
import { createProvider } from "../../../core/llm/createProvider";
import { ProviderError } from "../../../core/llm/errors";
import type { Provider, ProviderConfig } from "../../../core/llm/types";
import type { Logger } from "../../../core/ports";
import { Emitter } from "../../../shared/disposable";
import type { RawSettings, SettingsEdit } from "./profileEdits";
import { buildState, chooseProfile, legacyProfile, secretNameOf, type Profile, type ProfilesState } from "./profiles";
import { fullKey, KILN, kilnConfiguration, rawSetting } from "./kilnSettings";
import { readLegacySettings, resolveProfileConfig } from "./providerConfig";

// The whole kiln.provider section: the default profile is made of it.
const WATCHED = [...Object.values(KILN.profiles).map(fullKey), "kiln.provider"];
const MAX_KEY = 4096;

/**
 * Profiles live in user settings (`kiln.profiles`, `kiln.activeProfile`, `kiln.modeProfiles`, and
 * `kiln.provider.*` for "default"), keys in SecretStorage. Read afresh on each use: settings are
 * cheap to read, and a hand edit applies to the next request without a reload.
 */
export class ProfileStore implements vscode.Disposable {
  private readonly changed = new Emitter<void>();
  /** Profiles, pins or the active profile changed (in settings.json or through Kiln). */
  readonly onDidChange = this.changed.event;
  private readonly configListener: vscode.Disposable;
  private readonly reported = new Set<string>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly logger: Logger,
  ) {
    this.configListener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (WATCHED.some((section) => event.affectsConfiguration(section))) this.changed.fire();
    });
  }

  raw(): RawSettings {
    return { profiles: rawSetting(KILN.profiles.list), active: rawSetting(KILN.profiles.active), pins: rawSetting(KILN.profiles.modeProfiles) };
  }

  read(): ProfilesState {
    const raw = this.raw();
    const state = buildState(legacyProfile(readLegacySettings()), raw.profiles, raw.active, raw.pins);
    this.report(state.errors);
    return state;
  }

  /** The profile a request in `mode` uses (see chooseProfile); a stale name is logged, not fatal. */
  choose(mode: string | undefined, picked?: string): Profile {
    const choice = chooseProfile(this.read(), mode, picked);
    if (choice.warning) this.report([choice.warning]);
    if (!choice.profile) throw new ProviderError("config", choice.warning);
    return choice.profile;
  }

  /** A profile's settings with its key (its own, else the environment's). */
  config(profile: Profile): Promise<ProviderConfig> {
    return resolveProfileConfig(this.secrets, profile, this.logger);
  }

  async provider(profile: Profile): Promise<Provider> {
    const config = await resolveProfileConfig(this.secrets, profile, this.logger);
    try {
      return createProvider(config);
    } catch (err) {
      // createProvider's hint ("Set API Key") stores the default profile's key, not this one's.
      if (profile.source === "settings" && err instanceof ProviderError && err.kind === "no_key") {
        throw new ProviderError("no_key", `No API key is set for profile "${profile.name}" (${profile.kind}). Set it in Kiln: Open Settings (or in the environment) and retry.`);
      }
      throw err;
    }
  }

  async hasKey(profile: Profile): Promise<boolean> {
    return Boolean(await this.secrets.get(secretNameOf(profile)));
  }

  /** Stores (or with "" removes) a profile's key; returns why a value was refused. */
  async setKey(profile: Profile, key: string): Promise<string | undefined> {
    const trimmed = key.trim();
    if (trimmed === "") {
      await this.secrets.delete(secretNameOf(profile));
      this.logger.info(`API key of profile ${profile.name} removed`);
      return undefined;
    }
    if (/\s/.test(trimmed) || trimmed.length > MAX_KEY) return "that does not look like an API key (it has spaces or is very long); nothing was saved";
    await this.secrets.store(secretNameOf(profile), trimmed);
    this.logger.info(`API key of profile ${profile.name} saved to secret storage`);
    return undefined;
  }

  /** Writes an edit computed by profileEdits.ts to the user settings (and drops a deleted profile's key). */
  async apply(edit: SettingsEdit): Promise<void> {
    const kiln = kilnConfiguration();
    const global = vscode.ConfigurationTarget.Global;
    const { provider, profiles } = KILN;
    if (edit.legacy) {
      const p = edit.legacy;
      await kiln.update(provider.kind.key, p.kind, global);
      await kiln.update(provider.baseUrl.key, p.baseUrl, global);
      await kiln.update(provider.model.key, p.model, global);
      await kiln.update(provider.protocol.key, p.protocol, global);
      await kiln.update(provider.modelInfo.key, p.modelInfo, global);
      // Cleared when absent: switching the default profile from Bedrock to Anthropic leaves no stray region.
      for (const field of [...PROVIDER_OPTIONS, "reasoningEffort", "thinkingBudget"] as const) await kiln.update(provider[field].key, p[field], global);
    }
    if (edit.profiles) await kiln.update(profiles.list.key, edit.profiles, global);
    if (edit.pins) await kiln.update(profiles.modeProfiles.key, Object.keys(edit.pins).length > 0 ? edit.pins : undefined, global);
    if (edit.active !== undefined) await kiln.update(profiles.active.key, edit.active === "" ? undefined : edit.active, global);
    if (edit.deleteSecret) await this.secrets.delete(edit.deleteSecret);
  }

  /** Each distinct problem is logged and shown once, not at every request. */
  private report(errors: readonly string[]): void {
    for (const error of errors) {
      if (this.reported.has(error)) continue;
      this.reported.add(error);
      this.logger.warn(error);
      void vscode.window.showWarningMessage(l10n.t("Kiln: {0}", error));
    }
  }

  dispose(): void {
    this.configListener.dispose();
    this.changed.dispose();
  }
}
