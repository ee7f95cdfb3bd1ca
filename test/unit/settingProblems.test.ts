import { describe, expect, it } from "vitest";
import { PROVIDER_KINDS } from "../../src/shared/providerCatalog";
import { deleteProfile, pinMode, saveProfile } from "../../src/hosts/vscode/settings/profileEdits";
import { buildState, legacyProfile, validateProfile } from "../../src/hosts/vscode/settings/profiles";
import { AutoApproveChangesSchema, OptionChangesSchema, settingProblem } from "../../src/shared/protocol/settings";
import { inPseudoLocale, translated, useEnglish } from "./pseudoL10n";

type Schema = typeof OptionChangesSchema | typeof AutoApproveChangesSchema;

/** The first issue of `changes`, said about `subject` as the host and the page say it. */
function problem(schema: Schema, changes: Record<string, unknown>, subject = "kiln.x"): string {
  const parsed = schema.safeParse(changes);
  if (parsed.success) throw new Error(`${JSON.stringify(changes)} was accepted`);
  return settingProblem(parsed.error.issues[0]!, subject);
}

const BAD_OPTIONS: Record<string, unknown>[] = [
  { mode: "" },
  { mode: 3 },
  { maxRequests: 0 },
  { maxRequests: 1.5 },
  { maxRequests: 5000 },
  { retries: 11 },
  { requireTodosDone: "yes" },
  { readFileMaxLines: 0 },
  { toolResultMaxChars: "lots" },
  { outputMaxChars: 10 },
  { fuzzyThreshold: 0.5 },
  { browserPath: 42 },
  { browserPath: "x".repeat(5000) },
  { autoCondensePercent: 101 },
  { shortenResultsAfter: -1 },
  { budgetMaxTokens: -1 },
  { budgetMaxCost: -1 },
  { budgetMaxCost: Number.MAX_VALUE },
  { budgetMaxInputTokens: 0.5 },
];

const BAD_APPROVE: Record<string, unknown>[] = [
  { words: "read" },
  { words: ["read", "everything"] },
  { enabled: "no" },
  { allowed: "git" },
  { allowed: [""] },
  { denied: ["x".repeat(501)] },
  { denied: Array.from({ length: 501 }, (_, i) => `c${i}`) },
  { refuseDenied: 1 },
  { maxRequests: -1 },
  { maxRequests: 2_000_000 },
  { maxCost: "lots" },
  { maxCost: 2_000_000 },
];

describe("settings refused with the same words in English", () => {
  it("says what is wrong about the setting the host names (the in-host suite's words)", () => {
    useEnglish();
    expect(problem(OptionChangesSchema, { maxRequests: 0 }, "kiln.maxRequests")).toBe("kiln.maxRequests must be a whole number, 1 or more");
    expect(problem(OptionChangesSchema, { maxRequests: 5000 }, "kiln.maxRequests")).toBe("kiln.maxRequests is at most 1000");
    expect(problem(OptionChangesSchema, { retries: 11 }, "kiln.provider.retries")).toBe("kiln.provider.retries must be a whole number from 0 to 10");
    expect(problem(OptionChangesSchema, { readFileMaxLines: 0 }, "kiln.context.readFileMaxLines")).toBe("kiln.context.readFileMaxLines must be a whole number from 1 to 100000");
    expect(problem(OptionChangesSchema, { fuzzyThreshold: 0.5 }, "kiln.applyDiff.fuzzyThreshold")).toBe("kiln.applyDiff.fuzzyThreshold must be a number from 0.8 to 1");
    expect(problem(OptionChangesSchema, { requireTodosDone: "yes" }, "kiln.requireTodosDone")).toBe("kiln.requireTodosDone must be true or false");
    expect(problem(OptionChangesSchema, { browserPath: 42 }, "kiln.browser.executablePath")).toBe("kiln.browser.executablePath must be a path (empty: found automatically)");
    expect(problem(OptionChangesSchema, { budgetMaxCost: -1 }, "Max cost")).toBe("Max cost must be a number, 0 or more (USD)");
    expect(problem(AutoApproveChangesSchema, { maxRequests: -1 }, "kiln.autoApproveMaxRequests")).toBe("kiln.autoApproveMaxRequests must be a whole number, 0 or more");
    expect(problem(AutoApproveChangesSchema, { maxCost: "lots" }, "kiln.autoApproveMaxCost")).toBe("kiln.autoApproveMaxCost must be a number, 0 or more");
    expect(problem(AutoApproveChangesSchema, { words: ["read", "everything"] }, "kiln.autoApprove")).toMatch(/^kiln\.autoApprove each must be one of read, edit/);
    expect(problem(AutoApproveChangesSchema, { allowed: [""] }, "kiln.autoApproveAllowedCommands")).toBe("kiln.autoApproveAllowedCommands has an empty command prefix");
  });

  it("a profile's field says what it must be", () => {
    useEnglish();
    expect(validateProfile({ name: "x", kind: "gpt" })).toEqual({ ok: false, field: "kind", message: `must be one of ${PROVIDER_KINDS.join(", ")}` });
    expect(PROVIDER_KINDS).toEqual(expect.arrayContaining(["anthropic", "openai", "openai-compatible", "openrouter", "ollama", "deepseek"]));
  });
});

describe("settings refused in the user's language", () => {
  inPseudoLocale();

  const label = (changes: Record<string, unknown>) => JSON.stringify(changes).slice(0, 40);
  it.each([...BAD_OPTIONS.map((c) => ["options", label(c), c] as const), ...BAD_APPROVE.map((c) => ["auto-approve", label(c), c] as const)])(
    "%s %s: one translated sentence about the setting",
    (section, _, changes) => {
      const text = problem(section === "options" ? OptionChangesSchema : AutoApproveChangesSchema, changes, "SETTING");
      expect(translated(text), text).toBe(true);
      expect(text).toContain("SETTING");
      expect(text).not.toContain("\u{E000}");
    },
  );

  it("an issue the schemas have no words for still names the setting, in a translated frame", () => {
    expect(settingProblem({ message: "Invalid input" }, "kiln.x")).toBe("⟦{0}: {1}⟧".replace("{0}", "kiln.x").replace("{1}", "Invalid input"));
  });

  it.each([
    [{ name: "", kind: "openai" }, "name"],
    [{ name: "a\u0001b", kind: "openai" }, "name"],
    [{ name: "x", kind: "gpt" }, "kind"],
    [{ name: "x", kind: "openai", baseUrl: "ftp://h" }, "baseUrl"],
    [{ name: "x", kind: "openai", protocol: "json" }, "protocol"],
    [{ name: "x", kind: "openai", autoCondensePercent: 120 }, "autoCondensePercent"],
    [{ name: "x", kind: "openai", autoCondensePercent: 5.5 }, "autoCondensePercent"],
    [{ name: "x", kind: "openai-compatible" }, "baseUrl"],
    [{ name: "x", kind: "openai-compatible", baseUrl: "http://h/v1" }, "model"],
    [{ name: "x", kind: "openai", baseURL: "http://h" }, "profile"],
    [{ name: "x", kind: "openai", apiKey: "sk" }, "apiKey"],
    [{ name: "Default", kind: "openai" }, "name"],
  ])("a profile %j: its field's message is translated", (raw, field) => {
    const result = validateProfile(raw);
    expect(result).toMatchObject({ ok: false, field });
    const message = result.ok ? "" : result.message;
    expect(translated(message), message).toBe(true);
  });

  it("profile edits refused: each message translated", () => {
    const raw = {
      profiles: [
        { name: "Big", kind: "openai" },
        { name: "Small", kind: "openai" },
      ],
      active: "",
      pins: {},
    };
    const state = buildState(legacyProfile({ kind: "openai", baseUrl: "", model: "", protocol: "xml", modelInfo: undefined }), raw.profiles, "", {});
    const messages = [
      deleteProfile(raw, state, "Nope"),
      deleteProfile(raw, state, "default"),
      pinMode(raw, state, "code", "Nope"),
      saveProfile(raw, state, "Nope", { name: "x", kind: "openai" }),
      saveProfile(raw, state, "Small", { name: "Big", kind: "openai" }),
    ].map((result) => (result.ok ? "" : result.message));
    for (const message of messages) expect(translated(message), message).toBe(true);
  });
});
