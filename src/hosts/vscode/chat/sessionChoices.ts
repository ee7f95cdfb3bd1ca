import * as l10n from "@vscode/l10n";
import type { ModeState } from "../../../core/agent/toolbox";
import type { Mode } from "../../../core/modes/modes";
import { modeText } from "../../../core/modes/modeText";
import { DEFAULT_MODELS, type Provider } from "../../../core/llm/types";
import { resolveModelInfo } from "../../../core/llm/models";
import type { Logger } from "../../../core/ports";
import type { ToolProtocolSetting } from "../../../core/prompts/system";
import type { Pickers, ProviderSummary } from "../../../shared/protocol/messages";
import { RequestError } from "../../../shared/protocol/requests";
import { saveProfile } from "../settings/profileEdits";
import { DEFAULT_PROFILE, findProfile, toSetting, type Profile } from "../settings/profiles";
import type { ProfileStore } from "../settings/profileStore";

/** What SessionChoices needs of the chat's task: its mode, and a way to change it (the task announces it). */
export interface ModeHolder {
  readonly modes: ModeState | undefined;
  setMode(slug: string): boolean;
}

/** How a new task starts: its mode, and the tool protocol of that mode's profile (none without a usable profile). */
export interface TaskStart {
  mode?: Mode;
  protocol?: ToolProtocolSetting;
}

/**
 * One chat's mode and profile choices. The profile of a request is the one picked in the chat for
 * the current mode, else the mode's pinned profile (`kiln.modeProfiles`), else the active profile;
 * switching mode (picker, keybinding or the model's switch_mode) drops the pick, so a pinned
 * profile takes over.
 */
export class SessionChoices {
  /** The chat's current task. */
  private task: ModeHolder | undefined;
  /**
   * The id of the profile picked in the chat input since the last mode switch: an id, not a name,
   * so the pick follows a rename in the settings panel.
   */
  private picked: string | undefined;
  /** The mode last picked in this chat: its new tasks start in it (else `kiln.mode`). */
  private nextMode: string | undefined;

  constructor(
    private readonly store: ProfileStore,
    private readonly logger: Logger,
    /**
     * Writes `kiln.provider.model` alone. The default profile is the whole kiln.provider.* group;
     * saving all of it would copy a workspace's endpoint into the user's settings.
     */
    private readonly writeDefaultModel?: (model: string) => Promise<void>,
  ) {}

  /**
   * Before a new task is made: it starts in `reopenIn` (a task from history), else the mode last
   * picked in this chat, else the default. The protocol is fixed when the task starts: mixing XML
   * and native tool calls in one conversation would confuse the model, so a profile picked later
   * changes only the endpoint and model.
   */
  start(defaults: ModeState | undefined, reopenIn?: string): TaskStart {
    this.task = undefined;
    this.picked = undefined;
    if (!defaults) return {};
    const mode = [reopenIn, this.nextMode].flatMap((slug) => defaults.modes.filter((m) => m.slug === slug))[0] ?? defaults.mode;
    try {
      return { mode, protocol: this.store.choose(mode.slug).protocol };
    } catch (err) {
      // No usable profile: the first request says so in the chat; the task keeps kiln.provider.protocol.
      this.logger.warn(`no profile for the new task: ${err instanceof Error ? err.message : String(err)}`);
      return { mode };
    }
  }

  /** The task made from start(): the pickers show its mode, and mode picks go to it. */
  follow(task: ModeHolder): void {
    this.task = task;
  }

  get mode(): string | undefined {
    return this.task?.modes?.mode.slug;
  }

  /** The profile the next request uses; throws (a ProviderError) when none is usable. */
  profile(): Profile {
    // A picked profile deleted since is no longer a pick: the pin or the active profile applies, without a warning.
    const picked = this.picked === undefined ? undefined : this.store.read().profiles.find((p) => p.id === this.picked)?.name;
    return this.store.choose(this.mode, picked);
  }

  /** The profile the next request uses, for a page's request: none usable is a refusal the page shows. */
  requestProfile(): Profile {
    try {
      return this.profile();
    } catch (err) {
      throw new RequestError(err instanceof Error ? err.message : String(err));
    }
  }

  provider(): Promise<Provider> {
    return this.store.provider(this.profile());
  }

  modelOverrides(): unknown {
    try {
      return this.profile().modelInfo;
    } catch {
      // The request fails with the reason on its own; no overrides to add meanwhile.
      return undefined;
    }
  }

  summary(): ProviderSummary {
    const profile = this.profile();
    const model = profile.model || DEFAULT_MODELS[profile.kind];
    return { kind: profile.kind, model, images: resolveModelInfo(profile.kind, model, this.modelOverrides()).info.supportsImages };
  }

  /** The task's mode changed (by anyone): a profile picked for the old mode no longer applies. */
  modeChanged(): void {
    this.picked = undefined;
  }

  /** Mode picker or keybinding: the task goes on in `slug`, and this chat's new tasks start in it. */
  pickMode(slug: string): boolean {
    if (!this.task?.setMode(slug)) {
      this.logger.warn(`mode ${slug} is not available in this chat`);
      return false;
    }
    this.nextMode = slug;
    return true;
  }

  /** The mode after the current one, in the order the picker lists them. */
  cycleMode(): string | undefined {
    const modes = this.task?.modes?.modes ?? [];
    if (modes.length === 0) return undefined;
    const index = modes.findIndex((m) => m.slug === this.mode);
    const next = modes[(index + 1) % modes.length]!;
    return this.pickMode(next.slug) ? next.slug : undefined;
  }

  /** Profile picker: this task uses `name` from now on, and it becomes the active profile. */
  async pickProfile(name: string): Promise<boolean> {
    const profile = findProfile(this.store.read(), name);
    if (!profile) {
      this.logger.warn(`profile ${name} does not exist`);
      return false;
    }
    this.picked = profile.id;
    await this.store.apply({ active: profile.name === DEFAULT_PROFILE ? "" : profile.name });
    return true;
  }

  /**
   * Model picker: the profile the next request uses gets this model, in its settings (checked as the
   * settings panel checks a save), so the current task's next request and the chat's new tasks use it.
   */
  async pickModel(model: string): Promise<Profile> {
    const profile = this.requestProfile();
    const result = saveProfile(this.store.raw(), this.store.read(), profile.name, { ...toSetting(profile), model });
    if (!result.ok) throw new RequestError(result.message, result.field);
    if (profile.source === "legacy" && this.writeDefaultModel) await this.writeDefaultModel(result.profile.model);
    else await this.store.apply(result.edit);
    // A workspace's value of the same setting wins over the user's, where the write went.
    if (this.profile().model !== result.profile.model) {
      throw new RequestError(
        l10n.t("The model was saved in your user settings, but this workspace's settings set {0}, which wins; change it there.", profile.source === "legacy" ? "kiln.provider.model" : "kiln.profiles"),
      );
    }
    return result.profile;
  }

  pickers(): Pickers {
    const state = this.store.read();
    let profile: string | undefined;
    try {
      profile = this.profile().name;
    } catch {
      profile = undefined; // Shown as no selection; the chat's next request explains.
    }
    return {
      modes: (this.task?.modes?.modes ?? []).map((m) => ({ slug: m.slug, ...modeText(m) })),
      ...(this.mode === undefined ? {} : { mode: this.mode }),
      profiles: state.profiles.map((p) => ({ name: p.name, kind: p.kind, model: p.model || DEFAULT_MODELS[p.kind] })),
      ...(profile === undefined ? {} : { profile }),
    };
  }
}
