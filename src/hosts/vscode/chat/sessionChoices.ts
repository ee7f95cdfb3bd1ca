import type { Toolbox } from "../../../core/agent/toolbox";
import type { Mode } from "../../../core/modes/modes";
import { DEFAULT_MODELS, type Provider } from "../../../core/llm/types";
import { resolveModelInfo } from "../../../core/llm/models";
import type { Logger } from "../../../core/ports";
import type { ToolProtocolSetting } from "../../../core/prompts/system";
import type { Pickers, ProviderSummary } from "../../../shared/protocol/messages";
import { DEFAULT_PROFILE, findProfile, type Profile } from "../settings/profiles";
import type { ProfileStore } from "../settings/profileStore";

/** What SessionChoices needs of a Task: its mode can be set from outside. */
export interface ModeSwitchable {
  setMode(slug: string): boolean;
}

/**
 * Gives a toolbox (and the subtasks' toolboxes made from it) the tool protocol of the task's
 * profile. The protocol is fixed when the task starts: mixing XML and native tool calls in one
 * conversation would confuse the model, so a profile picked later changes only the endpoint and model.
 */
function withProtocol(toolbox: Toolbox, protocol: ToolProtocolSetting): Toolbox {
  const withMode = toolbox.withMode.bind(toolbox);
  toolbox.protocol = protocol;
  toolbox.withMode = (mode: Mode) => withProtocol(withMode(mode), protocol);
  return toolbox;
}

/**
 * One chat's mode and profile choices. The profile of a request is the one picked in the chat for
 * the current mode, else the mode's pinned profile (`kiln.modeProfiles`), else the active profile;
 * switching mode (picker, keybinding or the model's switch_mode) drops the pick, so a pinned
 * profile takes over.
 */
export class SessionChoices {
  private toolbox: Toolbox | undefined;
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
  ) {}

  /** Called with a new task's tools before the Task is made: sets its starting mode and protocol. */
  prepare(toolbox: Toolbox | undefined): Toolbox | undefined {
    this.toolbox = toolbox;
    this.picked = undefined;
    if (!toolbox) return toolbox;
    const mode = this.nextMode === undefined ? undefined : toolbox.modes.find((m) => m.slug === this.nextMode);
    if (mode) toolbox.mode = mode;
    try {
      return withProtocol(toolbox, this.store.choose(toolbox.mode.slug).protocol);
    } catch (err) {
      // No usable profile: the first request says so in the chat; the toolbox keeps kiln.provider.protocol.
      this.logger.warn(`no profile for the new task: ${err instanceof Error ? err.message : String(err)}`);
      return toolbox;
    }
  }

  get mode(): string | undefined {
    return this.toolbox?.mode.slug;
  }

  /** The profile the next request uses; throws (a ProviderError) when none is usable. */
  profile(): Profile {
    // A picked profile deleted since is no longer a pick: the pin or the active profile applies, without a warning.
    const picked = this.picked === undefined ? undefined : this.store.read().profiles.find((p) => p.id === this.picked)?.name;
    return this.store.choose(this.mode, picked);
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
  pickMode(task: ModeSwitchable, slug: string): boolean {
    if (!task.setMode(slug)) {
      this.logger.warn(`mode ${slug} is not available in this chat`);
      return false;
    }
    this.nextMode = slug;
    return true;
  }

  /** The mode after the current one, in the order the picker lists them. */
  cycleMode(task: ModeSwitchable): string | undefined {
    const modes = this.toolbox?.modes ?? [];
    if (modes.length === 0) return undefined;
    const index = modes.findIndex((m) => m.slug === this.mode);
    const next = modes[(index + 1) % modes.length]!;
    return this.pickMode(task, next.slug) ? next.slug : undefined;
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

  pickers(): Pickers {
    const state = this.store.read();
    let profile: string | undefined;
    try {
      profile = this.profile().name;
    } catch {
      profile = undefined; // Shown as no selection; the chat's next request explains.
    }
    return {
      modes: (this.toolbox?.modes ?? []).map((m) => ({ slug: m.slug, name: m.name })),
      ...(this.mode === undefined ? {} : { mode: this.mode }),
      profiles: state.profiles.map((p) => ({ name: p.name, kind: p.kind, model: p.model || DEFAULT_MODELS[p.kind] })),
      ...(profile === undefined ? {} : { profile }),
    };
  }
}
