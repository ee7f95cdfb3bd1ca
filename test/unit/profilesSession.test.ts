import { describe, expect, it } from "vitest";
import type { Toolbox } from "../../src/core/agent/toolbox";
import { BUILTIN_MODES, type Mode } from "../../src/core/modes/modes";
import { TaskChanges } from "../../src/core/edit/taskChanges";
import type { Logger } from "../../src/core/ports";
import type { ProfileStore } from "../../src/hosts/vscode/settings/profileStore";
import { buildState, chooseProfile, legacyProfile, type Profile, type ProfilesState } from "../../src/hosts/vscode/settings/profiles";
import { SessionChoices } from "../../src/hosts/vscode/chat/sessionChoices";
import { parseWebviewMessage } from "../../src/shared/protocol/messages";
import { parseParams } from "../../src/shared/protocol/parse";
import { parseSettingsMessage, SETTINGS_REQUESTS } from "../../src/shared/protocol/settings";
import { applyPickers, pickerStore } from "../../webview-ui/src/settings/pickerStore";

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

function toolbox(modes: readonly Mode[] = BUILTIN_MODES): Toolbox {
  const made: Toolbox = {
    protocol: "xml",
    maxRequests: 10,
    mode: modes[0]!,
    modes,
    changes: new TaskChanges(),
    previewEdit: () => undefined,
    endPreviews: async () => undefined,
    requireTodosDone: false,
    withMode: (mode) => ({ ...made, mode }),
    xmlParams: () => ({}),
    nativeTools: () => [],
    systemPrompt: () => "",
    pipeline: () => {
      throw new Error("not used");
    },
    dispose: () => undefined,
  };
  return made;
}

/** A task whose setMode changes the toolbox's mode and tells the choices, as ChatSession wires it. */
function task(box: Toolbox, choices: SessionChoices) {
  return {
    setMode(slug: string): boolean {
      const mode = box.modes.find((m) => m.slug === slug);
      if (!mode) return false;
      box.mode = mode;
      choices.modeChanged();
      return true;
    },
  };
}

function setup(pins: Record<string, string> = { architect: "Big" }) {
  const legacy = legacyProfile({ kind: "openai-compatible", baseUrl: "http://localhost:1/v1", model: "fake-model", protocol: "xml", modelInfo: undefined });
  const store = new FakeStore(buildState(legacy, [{ name: "Big", kind: "anthropic", model: "claude-opus-5", protocol: "native", modelInfo: { contextWindow: 500000 } }], "", pins));
  const choices = new SessionChoices(store as unknown as ProfileStore, logger);
  return { store, choices };
}

describe("a chat's mode and profile choices", () => {
  it("starts a task in the pinned profile of its mode, with that profile's protocol (subtasks too)", () => {
    const { choices } = setup({ code: "Big" });
    const box = choices.prepare(toolbox())!;
    expect(box.protocol).toBe("native");
    expect(box.withMode(BUILTIN_MODES[1]!).protocol).toBe("native");
    expect(choices.profile().name).toBe("Big");
    expect(choices.modelOverrides()).toEqual({ contextWindow: 500000 });
    expect(choices.summary()).toEqual({ kind: "anthropic", model: "claude-opus-5", images: true });
  });

  it("switching to a mode with a pin brings its profile; leaving it goes back to the active one", () => {
    const { choices } = setup();
    const box = choices.prepare(toolbox())!;
    const t = task(box, choices);
    expect(choices.profile().name).toBe("default");
    expect(choices.pickMode(t, "architect")).toBe(true);
    expect(choices.profile().name).toBe("Big");
    choices.pickMode(t, "code");
    expect(choices.profile().name).toBe("default");
    expect(choices.pickMode(t, "no-such-mode")).toBe(false);
  });

  it("a profile picked in the chat wins until the mode changes, and becomes the active one", async () => {
    const { store, choices } = setup();
    const box = choices.prepare(toolbox())!;
    expect(await choices.pickProfile("big")).toBe(true);
    expect(store.written).toEqual([{ active: "Big" }]);
    expect(choices.profile().name).toBe("Big");
    expect(await choices.pickProfile("default")).toBe(true);
    expect(store.written.at(-1)).toEqual({ active: "" });
    choices.pickMode(task(box, choices), "architect");
    expect(choices.profile().name).toBe("Big");
    expect(await choices.pickProfile("missing")).toBe(false);
  });

  it("cycles through the modes in order and wraps around; new tasks start in the last picked mode", () => {
    const { choices } = setup();
    const box = choices.prepare(toolbox())!;
    const t = task(box, choices);
    const seen = BUILTIN_MODES.map(() => choices.cycleMode(t));
    expect(seen).toEqual([...BUILTIN_MODES.slice(1).map((m) => m.slug), "code"]);
    choices.cycleMode(t);
    expect(choices.prepare(toolbox())!.mode.slug).toBe("architect");
  });

  it("lists modes and profiles for the pickers; a chat without tools has no modes", () => {
    const { choices } = setup();
    choices.prepare(toolbox());
    expect(choices.pickers()).toEqual({
      modes: BUILTIN_MODES.map((m) => ({ slug: m.slug, name: m.name })),
      mode: "code",
      profiles: [
        { name: "default", kind: "openai-compatible", model: "fake-model" },
        { name: "Big", kind: "anthropic", model: "claude-opus-5" },
      ],
      profile: "default",
    });
    choices.prepare(undefined);
    expect(choices.pickers().modes).toEqual([]);
    expect(choices.cycleMode({ setMode: () => true })).toBeUndefined();
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
