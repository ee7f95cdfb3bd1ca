import { describe, expect, it } from "vitest";
import { deleteProfile, pinMode, saveProfile, type RawSettings } from "../../src/hosts/vscode/settings/profileEdits";
import { buildState, chooseProfile, idFromName, legacyProfile, parseModeProfiles, parseProfiles, secretNameOf, validateProfile, type LegacySettings } from "../../src/hosts/vscode/settings/profiles";

const LEGACY: LegacySettings = { kind: "openai-compatible", baseUrl: "http://localhost:1/v1", model: "fake-model", protocol: "xml", modelInfo: {} };
const local = { id: "local-1", name: "Local", kind: "openai-compatible", baseUrl: "http://localhost:11434/v1", model: "qwen3", protocol: "native" };
const big = { id: "big-1", name: "Big", kind: "anthropic", model: "claude-opus-5" };

function state(profiles: unknown[] = [local, big], active: unknown = "", pins: unknown = {}) {
  return buildState(legacyProfile(LEGACY), profiles, active, pins);
}

describe("profile validation", () => {
  it("accepts a complete profile and fills the defaults", () => {
    const result = validateProfile({ name: " Cloud ", kind: "openai" });
    expect(result).toEqual({
      ok: true,
      profile: { id: idFromName("Cloud"), name: "Cloud", kind: "openai", baseUrl: "", model: "", protocol: "xml", source: "settings" },
    });
  });

  it.each([
    [{ name: "", kind: "openai" }, "name", /needs a name/],
    [{ name: "x", kind: "palm" }, "kind", /anthropic, openai, openai-compatible, openrouter, gemini/],
    [{ name: "x", kind: "openai", baseUrl: "ftp://host" }, "baseUrl", /http\(s\) URL/],
    [{ name: "x", kind: "openai-compatible", model: "m" }, "baseUrl", /needs a base URL/],
    [{ name: "x", kind: "openai-compatible", baseUrl: "http://h/v1" }, "model", /needs a model id/],
    [{ name: "x", kind: "openai", protocol: "json" }, "protocol", /xml, native or auto/],
    [{ name: "x", kind: "openai", modelInfo: { contextWindow: -5 } }, "modelInfo", /contextWindow: must be a positive whole number/],
    [{ name: "x", kind: "openai", modelInfo: { speed: 3 } }, "modelInfo", /speed: unknown model setting/],
    [{ name: "x", kind: "openai", baseURL: "http://h" }, "profile", /unknown field baseURL/],
    [{ name: "x", kind: "openai", apiKey: "sk-1" }, "apiKey", /never kept in settings/],
    [{ name: "Default", kind: "openai" }, "name", /kiln\.provider\.\* settings/],
    [{ name: "x", kind: "openai", autoCondensePercent: 120 }, "autoCondensePercent", /must be 0 to 100/],
    [{ name: "x", kind: "openai", autoCondensePercent: 50.5 }, "autoCondensePercent", /whole number/],
  ])("refuses %j at %s", (input, field, message) => {
    const result = validateProfile(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.field).toBe(field);
    expect(result.message).toMatch(message);
  });

  it("keeps a profile's own auto-condense threshold, written back to settings as given", () => {
    const result = validateProfile({ name: "Small local", kind: "openai-compatible", baseUrl: "http://h/v1", model: "qwen3", autoCondensePercent: 60 });
    expect(result.ok && result.profile.autoCondensePercent).toBe(60);
    const saved = saveProfile(
      { profiles: [], active: "", pins: {} },
      state([]),
      undefined,
      { name: "Small local", kind: "openai-compatible", baseUrl: "http://h/v1", model: "qwen3", autoCondensePercent: 60 },
      () => "small-1",
    );
    expect(saved.ok && saved.edit.profiles).toEqual([
      { id: "small-1", name: "Small local", kind: "openai-compatible", baseUrl: "http://h/v1", model: "qwen3", protocol: "xml", autoCondensePercent: 60 },
    ]);
  });

  it("reports a bad profile with its name and field, and keeps the others", () => {
    const parsed = parseProfiles([local, { name: "Broken", kind: "openai", baseUrl: "not a url" }, big, { kind: "openai" }]);
    expect(parsed.profiles.map((p) => p.name)).toEqual(["Local", "Big"]);
    expect(parsed.errors).toEqual([
      'kiln.profiles: profile "Broken": baseUrl: must be an http(s) URL, or empty for the provider\'s default',
      expect.stringMatching(/^kiln\.profiles: profile #4: name: /),
    ]);
  });

  it("keeps the first of two profiles with the same name or id", () => {
    const parsed = parseProfiles([local, { ...big, name: "local" }, { ...big, id: "local-1", name: "Other" }]);
    expect(parsed.profiles.map((p) => p.name)).toEqual(["Local"]);
    expect(parsed.errors).toEqual(['kiln.profiles: profile "local": its name is used twice; the first one is kept', 'kiln.profiles: profile "Other": its id is used twice; the first one is kept']);
  });

  it("says when kiln.profiles or kiln.modeProfiles has the wrong shape", () => {
    expect(parseProfiles({ name: "x" }).errors).toEqual(["kiln.profiles must be a list of profiles"]);
    expect(parseProfiles(undefined)).toEqual({ profiles: [], errors: [] });
    expect(parseModeProfiles({ code: "Local", ask: 3 })).toEqual({ pins: { code: "Local" }, errors: ["kiln.modeProfiles.ask: expected a profile name"] });
    expect(parseModeProfiles([]).errors).toHaveLength(1);
  });

  it("gives ids made from names that differ only in spelling different values", () => {
    expect(idFromName("GPT 4")).not.toBe(idFromName("gpt-4"));
    expect(idFromName("GPT 4")).toBe(idFromName("GPT 4"));
    expect(idFromName("GPT 4")).toMatch(/^gpt-4-[a-z0-9]+$/);
  });
});

describe("the default profile (kiln.provider.*)", () => {
  it("is the old settings, first in the list, with the per-kind key", () => {
    const s = state();
    expect(s.profiles.map((p) => p.name)).toEqual(["default", "Local", "Big"]);
    const profile = s.profiles[0]!;
    expect(profile).toMatchObject({ source: "legacy", kind: "openai-compatible", baseUrl: "http://localhost:1/v1", model: "fake-model", protocol: "xml" });
    expect(profile.modelInfo).toBeUndefined();
    expect(secretNameOf(profile)).toBe("kiln.apiKey.openai-compatible");
    expect(secretNameOf(s.profiles[1]!)).toBe("kiln.apiKey.profile.local-1");
  });

  it("with a bad kind is reported and the named profiles still work", () => {
    const s = buildState(legacyProfile({ ...LEGACY, kind: "palm" }), [local], "", {});
    expect(s.errors).toEqual([expect.stringMatching(/^kiln\.provider\.kind is "palm"; it must be one of anthropic, openai, .*, zai\.$/)]);
    expect(chooseProfile(s, "code").profile?.name).toBe("Local");
  });

  it("with no profiles configured is what every request uses", () => {
    const s = buildState(legacyProfile(LEGACY), undefined, undefined, undefined);
    expect(chooseProfile(s, "code")).toEqual({ profile: s.profiles[0] });
  });

  it("without any usable profile, says why", () => {
    const s = buildState(legacyProfile({ ...LEGACY, kind: 7 }), [], "", {});
    const choice = chooseProfile(s, "code");
    expect(choice.profile).toBeUndefined();
    expect(choice.warning).toMatch(/no usable provider profile: kiln\.provider\.kind is "7"/);
  });
});

describe("which profile a request uses", () => {
  it("picked in the chat, else pinned to the mode, else active, else default", () => {
    const s = state([local, big], "Local", { architect: "Big" });
    expect(chooseProfile(s, "code").profile?.name).toBe("Local");
    expect(chooseProfile(s, "architect").profile?.name).toBe("Big");
    expect(chooseProfile(s, "architect", "default").profile?.name).toBe("default");
    expect(chooseProfile(state([local, big]), "code").profile?.name).toBe("default");
  });

  it("matches names without regard to case", () => {
    expect(chooseProfile(state([local], "local"), "code").profile?.name).toBe("Local");
  });

  it("passes over a pin or an active profile that no longer exists, with a warning", () => {
    const choice = chooseProfile(state([local], "Gone", { code: "Deleted" }), "code");
    expect(choice.profile?.name).toBe("default");
    expect(choice.warning).toBe('the profile pinned to mode code (kiln.modeProfiles) "Deleted" does not exist; the active profile (kiln.activeProfile) "Gone" does not exist');
  });
});

describe("editing profiles", () => {
  const raw = (profiles: unknown[] = [local, big], active: unknown = "Local", pins: unknown = { architect: "Local", ask: "Big" }): RawSettings => ({ profiles, active, pins });

  it("adds a profile with a new id and without the form's empty fields", () => {
    const r = raw();
    const result = saveProfile(r, state(r.profiles as unknown[]), undefined, { name: "Cloud", kind: "openai", baseUrl: "", model: "", protocol: "auto" }, () => "p-new");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.edit.profiles).toEqual([local, big, { id: "p-new", name: "Cloud", kind: "openai", protocol: "auto" }]);
    expect(result.edit.pins).toBeUndefined();
    expect(result.edit.active).toBeUndefined();
  });

  it("keeps the id through a rename, and pins and the active profile follow the new name", () => {
    const r = raw();
    const result = saveProfile(r, state(r.profiles as unknown[]), "local", { ...local, id: "forged", name: "Laptop" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.profile.id).toBe("local-1");
    expect(result.edit.profiles?.[0]).toMatchObject({ id: "local-1", name: "Laptop" });
    expect(result.edit.pins).toEqual({ architect: "Laptop", ask: "Big" });
    expect(result.edit.active).toBe("Laptop");
  });

  it("gives a hand-written profile without an id the id its key was filed under", () => {
    const handWritten = { name: "Mine", kind: "openai" };
    const r = raw([handWritten]);
    const result = saveProfile(r, state([handWritten]), "Mine", { name: "Mine 2", kind: "openai" });
    expect(result.ok && result.profile.id).toBe(idFromName("Mine"));
  });

  it("refuses a name that another profile has, or an invalid field, naming the field", () => {
    const r = raw();
    expect(saveProfile(r, state(r.profiles as unknown[]), "Local", { ...local, name: "BIG" })).toEqual({ ok: false, field: "name", message: 'a profile named "Big" already exists' });
    expect(saveProfile(r, state(r.profiles as unknown[]), undefined, { name: "x", kind: "openai", baseUrl: "localhost" })).toMatchObject({ ok: false, field: "baseUrl" });
    expect(saveProfile(r, state(r.profiles as unknown[]), "Nope", big)).toMatchObject({ ok: false, message: 'there is no profile "Nope" any more' });
  });

  it("leaves entries it is not about untouched, even invalid ones", () => {
    const broken = { name: "Half done", kind: "openai", baseUrl: "htp:/" };
    const r = raw([broken, local]);
    const result = saveProfile(r, state([broken, local]), "Local", { ...local, model: "qwen3-coder" });
    expect(result.ok && result.edit.profiles?.[0]).toBe(broken);
  });

  it("edits the default profile as the kiln.provider.* settings", () => {
    const r = raw();
    const result = saveProfile(r, state(), "default", { name: "ignored", kind: "openai", baseUrl: "", model: "gpt-4.1", protocol: "native" });
    expect(result).toMatchObject({ ok: true, edit: { legacy: { kind: "openai", model: "gpt-4.1", protocol: "native", source: "legacy" } } });
    if (result.ok) expect(result.edit.profiles).toBeUndefined();
  });

  it("deletes a profile with its key, its pins and the active setting that named it", () => {
    const r = raw();
    const result = deleteProfile(r, state(r.profiles as unknown[]), "local");
    expect(result).toEqual({ ok: true, edit: { profiles: [big], pins: { ask: "Big" }, active: "", deleteSecret: "kiln.apiKey.profile.local-1" } });
    expect(deleteProfile(r, state(), "default")).toMatchObject({ ok: false });
    expect(deleteProfile(r, state(), "Nope")).toEqual({ ok: false, message: 'there is no profile "Nope"' });
  });

  it("pins a profile to a mode under its own spelling, and unpins", () => {
    const r = raw();
    expect(pinMode(r, state(), "code", "big")).toEqual({ ok: true, edit: { pins: { architect: "Local", ask: "Big", code: "Big" } } });
    expect(pinMode(r, state(), "ask", undefined)).toEqual({ ok: true, edit: { pins: { architect: "Local" } } });
    expect(pinMode(r, state(), "code", "Nope")).toEqual({ ok: false, message: 'there is no profile "Nope"' });
  });
});

describe("profiles for every provider kind", () => {
  it("keep the provider's own settings, and only its own", () => {
    const bedrock = validateProfile({ name: "AWS", kind: "bedrock", region: " eu-central-1 ", awsProfile: "work" });
    expect(bedrock).toMatchObject({ ok: true, profile: { kind: "bedrock", region: "eu-central-1", awsProfile: "work" } });
    expect(validateProfile({ name: "A", kind: "anthropic", region: "us-east-1" })).toEqual({ ok: false, field: "region", message: "Anthropic has no such setting" });
    expect(validateProfile({ name: "V", kind: "vertex", project: "my-proj", region: "europe-west1", keyFile: "/keys/sa.json" })).toMatchObject({ ok: true });
  });

  it.each([
    [{ name: "Az", kind: "azure", model: "dep" }, "baseUrl", "Azure OpenAI needs a base URL"],
    [{ name: "Az", kind: "azure", baseUrl: "https://x.openai.azure.com" }, "model", "Azure OpenAI needs the deployment's name as the model"],
    [{ name: "Local", kind: "ollama" }, "model", "Ollama needs a model id"],
    [{ name: "LMS", kind: "lmstudio" }, "model", "LM Studio needs a model id"],
  ])("say what a provider without a default needs: %j", (input, field, message) => {
    expect(validateProfile(input)).toEqual({ ok: false, field, message });
  });

  it("take a preset with nothing but its kind: its URL and model are the vendor's", () => {
    expect(validateProfile({ name: "DS", kind: "deepseek" })).toMatchObject({ ok: true, profile: { kind: "deepseek", baseUrl: "", model: "" } });
  });
});

describe("reasoning in profiles", () => {
  it("keeps an effort or a budget, and refuses both, a budget out of range, or a vendor that takes none", () => {
    expect(validateProfile({ name: "Think", kind: "anthropic", thinkingBudget: 16_000 })).toMatchObject({ ok: true, profile: { thinkingBudget: 16_000 } });
    expect(validateProfile({ name: "Think", kind: "openai", reasoningEffort: "high" })).toMatchObject({ ok: true, profile: { reasoningEffort: "high" } });
    expect(validateProfile({ name: "T", kind: "openai", reasoningEffort: "high", thinkingBudget: 2048 })).toEqual({
      ok: false,
      field: "thinkingBudget",
      message: "give a reasoning effort or a thinking budget, not both",
    });
    expect(validateProfile({ name: "T", kind: "anthropic", thinkingBudget: 100 })).toEqual({ ok: false, field: "thinkingBudget", message: "must be 1024 to 200000 tokens" });
    expect(validateProfile({ name: "T", kind: "openai", reasoningEffort: "extreme" })).toMatchObject({ ok: false, field: "reasoningEffort" });
    expect(validateProfile({ name: "T", kind: "deepseek", reasoningEffort: "low" })).toEqual({
      ok: false,
      field: "reasoningEffort",
      message: "DeepSeek takes no reasoning setting: its reasoning models think on their own",
    });
  });

  it("the default profile reads its reasoning and its provider's own settings from kiln.provider.*, dropping what does not apply", () => {
    const bedrock = legacyProfile({ ...LEGACY, kind: "bedrock", region: "eu-west-1", project: "not-bedrock", reasoningEffort: "medium" });
    expect(bedrock).toMatchObject({ profile: { kind: "bedrock", region: "eu-west-1", reasoningEffort: "medium" } });
    expect((bedrock as { profile: object }).profile).not.toHaveProperty("project");
    const odd = legacyProfile({ ...LEGACY, kind: "anthropic", reasoningEffort: "", thinkingBudget: 5 });
    expect((odd as { profile: object }).profile).not.toHaveProperty("reasoningEffort");
    expect((odd as { profile: object }).profile).not.toHaveProperty("thinkingBudget");
  });

  it("saving the default profile carries its reasoning and options to the kiln.provider.* settings", () => {
    const result = saveProfile({ profiles: [], active: "", pins: {} }, state(), "default", { kind: "vertex", project: "p1", region: "us-east5", thinkingBudget: 8000 });
    expect(result).toMatchObject({ ok: true, edit: { legacy: { kind: "vertex", project: "p1", region: "us-east5", thinkingBudget: 8000 } } });
  });
});
