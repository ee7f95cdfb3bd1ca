import { describe, expect, it } from "vitest";
import type { ModeState } from "../../src/core/agent/toolbox";
import { BUILTIN_MODES, type Mode } from "../../src/core/modes/modes";
import type { Logger } from "../../src/core/ports";
import type { ProfileStore } from "../../src/hosts/vscode/settings/profileStore";
import { buildState, chooseProfile, legacyProfile, type Profile, type ProfilesState } from "../../src/hosts/vscode/settings/profiles";
import { SessionChoices, type TaskStart } from "../../src/hosts/vscode/chat/sessionChoices";
import { parseWebviewMessage } from "../../src/shared/protocol/messages";
import { parseParams } from "../../src/shared/protocol/parse";
import { parseSettingsMessage, SETTINGS_REQUESTS } from "../../src/shared/protocol/settings";
import { applyPickers, pickerStore } from "../../webview-ui/src/settings/pickerStore";
import { useEnglish, usePseudoLocale } from "./pseudoL10n";

const logger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** ProfileStore's reading side over fixed settings; apply() records what would be written. */
class FakeStore {
  written: unknown[] = [];
  constructor(public state: ProfilesState) {}
  read = () => this.state;
  choose = (mode: string | undefined, picked?: string): Profile => chooseProfile(this.state, mode, picked).profile!;
  provider = async (profile: Profile) => ({ kind: profile.kind, model: profile.model, stream: () => (async function* () {})() });
  apply = async (edit: { active?: string }) => {
    this.written.push(edit);
    if (edit.active !== undefined) this.state = { ...this.state, active: edit.active || "default" };
  };
}

/** A new task's modes as the toolbox gives them: the default first. */
function defaults(modes: readonly Mode[] = BUILTIN_MODES): ModeState {
  return { mode: modes[0]!, modes };
}

/** The chat's task, started as the choices say: it holds the mode and tells the choices of a change, as ChatSession wires it. */
function follow(choices: SessionChoices, start: TaskStart, known = defaults()) {
  let state: ModeState = { mode: start.mode ?? known.mode, modes: known.modes };
  const task = {
    get modes() {
      return state;
    },
    setMode(slug: string): boolean {
      const mode = state.modes.find((m) => m.slug === slug);
      if (!mode) return false;
      state = { ...state, mode };
      choices.modeChanged();
      return true;
    },
  };
  choices.follow(task);
  return task;
}

function setup(pins: Record<string, string> = { architect: "Big" }) {
  const legacy = legacyProfile({ kind: "openai-compatible", baseUrl: "http://localhost:1/v1", model: "fake-model", protocol: "xml", modelInfo: undefined });
  const store = new FakeStore(buildState(legacy, [{ name: "Big", kind: "anthropic", model: "claude-opus-5", protocol: "native", modelInfo: { contextWindow: 500000 } }], "", pins));
  const choices = new SessionChoices(store as unknown as ProfileStore, logger);
  return { store, choices };
}

describe("a chat's mode and profile choices", () => {
  it("starts a task in the pinned profile of its mode, with that profile's protocol", () => {
    const { choices } = setup({ code: "Big" });
    const start = choices.start(defaults());
    expect(start).toEqual({ mode: BUILTIN_MODES[0], protocol: "native" });
    follow(choices, start);
    expect(choices.profile().name).toBe("Big");
    expect(choices.modelOverrides()).toEqual({ contextWindow: 500000 });
    expect(choices.summary()).toEqual({ kind: "anthropic", model: "claude-opus-5", images: true });
  });

  it("switching to a mode with a pin brings its profile; leaving it goes back to the active one", () => {
    const { choices } = setup();
    const t = follow(choices, choices.start(defaults()));
    expect(choices.profile().name).toBe("default");
    expect(choices.pickMode("architect")).toBe(true);
    expect(t.modes.mode.slug).toBe("architect");
    expect(choices.profile().name).toBe("Big");
    choices.pickMode("code");
    expect(choices.profile().name).toBe("default");
    expect(choices.pickMode("no-such-mode")).toBe(false);
    expect(t.modes.mode.slug).toBe("code");
  });

  it("a profile picked in the chat wins until the mode changes, and becomes the active one", async () => {
    const { store, choices } = setup();
    follow(choices, choices.start(defaults()));
    expect(await choices.pickProfile("big")).toBe(true);
    expect(store.written).toEqual([{ active: "Big" }]);
    expect(choices.profile().name).toBe("Big");
    expect(await choices.pickProfile("default")).toBe(true);
    expect(store.written.at(-1)).toEqual({ active: "" });
    choices.pickMode("architect");
    expect(choices.profile().name).toBe("Big");
    expect(await choices.pickProfile("missing")).toBe(false);
  });

  it("cycles through the modes in order and wraps around; new tasks start in the last picked mode", () => {
    const { choices } = setup();
    follow(choices, choices.start(defaults()));
    const seen = BUILTIN_MODES.map(() => choices.cycleMode());
    expect(seen).toEqual([...BUILTIN_MODES.slice(1).map((m) => m.slug), "code"]);
    choices.cycleMode();
    const next = choices.start(defaults());
    expect(next.mode?.slug).toBe("architect");
    // The pin of the mode it starts in gives the protocol; a task reopened from history keeps its own mode.
    expect(next.protocol).toBe("native");
    expect(choices.start(defaults(), "ask").mode?.slug).toBe("ask");
  });

  it("the mode picker shows the built-in modes' names and lines in the user's language", () => {
    const { choices } = setup();
    follow(choices, choices.start(defaults()));
    usePseudoLocale();
    try {
      expect(choices.pickers().modes).toEqual(BUILTIN_MODES.map((m) => ({ slug: m.slug, name: `⟦${m.name}/the name of a built-in mode, in the mode picker⟧`, description: `⟦${m.whenToUse}⟧` })));
    } finally {
      useEnglish();
    }
  });

  it("lists modes and profiles for the pickers; a chat without tools has no modes", () => {
    const { choices } = setup();
    follow(choices, choices.start(defaults()));
    expect(choices.pickers()).toEqual({
      // Each with its one line on what it is for, for the mode picker.
      modes: BUILTIN_MODES.map((m) => ({ slug: m.slug, name: m.name, description: m.whenToUse })),
      mode: "code",
      profiles: [
        { name: "default", kind: "openai-compatible", model: "fake-model" },
        { name: "Big", kind: "anthropic", model: "claude-opus-5" },
      ],
      profile: "default",
    });
    expect(choices.start(undefined)).toEqual({});
    expect(choices.pickers().modes).toEqual([]);
    expect(choices.cycleMode()).toBeUndefined();
  });
});

describe("the pickers' and the settings panel's messages", () => {
  it("the chat accepts setMode and setProfile, and nothing else in them", () => {
    expect(parseWebviewMessage({ type: "chat/setMode", slug: "architect" }).ok).toBe(true);
    expect(parseWebviewMessage({ type: "chat/setProfile", name: "Big" }).ok).toBe(true);
    expect(parseWebviewMessage({ type: "chat/setProfile", name: "" }).ok).toBe(false);
    expect(parseWebviewMessage({ type: "chat/setMode", slug: "code", global: true }).ok).toBe(false);
  });

  it("the settings panel's messages are checked before the host acts", () => {
    const profile = { name: "Big", kind: "anthropic", baseUrl: "", model: "", protocol: "xml", modelInfo: { contextWindow: 1000 } };
    const params = <K extends keyof typeof SETTINGS_REQUESTS>(method: K, raw: unknown) => parseParams(SETTINGS_REQUESTS[method].params, raw, method);
    expect(parseSettingsMessage({ type: "request", id: 1, method: "settings/saveProfile", params: { profile } }).ok).toBe(true);
    expect(params("settings/saveProfile", { profile }).ok).toBe(true);
    expect(params("settings/saveProfile", { profile: { ...profile, apiKey: "sk" } })).toMatchObject({ ok: false });
    expect(params("settings/setKey", { name: "Big", key: "x".repeat(5000) })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/invalid settings\/setKey params.*at key/),
    });
    expect(params("settings/pinMode", { mode: "code", profile: null }).ok).toBe(true);
    expect(parseSettingsMessage({ type: "settings/editModes", scope: "/etc" }).ok).toBe(false);
    expect(parseSettingsMessage({ type: "settings/runCommand", command: "rm" }).ok).toBe(false);
  });

  it("the chat's picker store takes chat/pickers and ignores the rest", () => {
    const pickers = { modes: [{ slug: "code", name: "Code" }], mode: "code", profiles: [{ name: "default", kind: "openai", model: "gpt-4.1" }], profile: "default" };
    let calls = 0;
    const stop = pickerStore.subscribe(() => calls++);
    applyPickers({ type: "chat/snapshot", items: [] });
    applyPickers({ type: "chat/pickers", pickers: { modes: "code" } });
    applyPickers({ type: "chat/pickers", pickers });
    stop();
    expect(calls).toBe(1);
    expect(pickerStore.get()).toEqual(pickers);
  });
});
