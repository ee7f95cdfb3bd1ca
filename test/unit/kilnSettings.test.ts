import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Logger } from "../../src/core/ports";
import { APPROVE_SETTING, OPTION_DEFAULTS, OPTION_SETTING } from "../../src/shared/protocol/settings";
import { APPROVE_FIELDS, createValidator, KILN, OPTION_FIELDS, validateSection, type Setting } from "../../src/hosts/vscode/settings/kilnSettingsSchema";

/** A logger that keeps its warnings, to count them. */
function recorder(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined };
}

describe("a kiln.* setting's value", () => {
  it.each([
    ["a wrong type", KILN.task.maxRequests, "lots", 100, 'setting kiln.maxRequests is "lots", which is not valid; using 100 (invalid input: expected number, received string)'],
    ["a number below its bounds", KILN.context.readFileMaxLines, 0, 500, "setting kiln.context.readFileMaxLines is 0, which is not valid; using 500 (too small"],
    ["a number above its bounds", KILN.reply.maxChars, 200_000_000, 1_000_000, "setting kiln.reply.maxChars is 200000000, which is not valid; using 1000000 (too big"],
    ["a fraction where a whole number is wanted", KILN.provider.retries, 2.5, 3, "setting kiln.provider.retries is 2.5, which is not valid; using 3"],
    ["an unknown enum value", KILN.provider.protocol, "json", "xml", 'setting kiln.provider.protocol is "json", which is not valid; using "xml" (invalid option'],
    ["an unknown word in a list", KILN.autoApprove.words, ["read", "everything"], ["read"], 'setting kiln.autoApprove is ["read","everything"], which is not valid; using ["read"]'],
  ])("%s gives the default and one log line naming the key, the value and the default", (_, setting: Setting<unknown>, raw, fallback, line) => {
    const logger = recorder();
    expect(createValidator()(setting, raw, logger)).toEqual(fallback);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain(line);
  });

  it.each([undefined, null])("missing (%s) gives the default without a word, as VS Code's own default would", (raw) => {
    const logger = recorder();
    const validate = createValidator();
    expect(validate(KILN.task.maxRequests, raw, logger)).toBe(100);
    expect(validate(KILN.autoApprove.allowed, raw, logger)).toEqual(["git status", "git diff", "git log", "ls", "cat", "pwd", "echo"]);
    expect(logger.warnings).toEqual([]);
  });

  it("a valid value is kept as it is", () => {
    const logger = recorder();
    const validate = createValidator();
    expect(validate(KILN.task.maxRequests, 7, logger)).toBe(7);
    expect(validate(KILN.edits.fuzzyThreshold, 0.85, logger)).toBe(0.85);
    expect(validate(KILN.provider.protocol, "native", logger)).toBe("native");
    expect(validate(KILN.rules.disabled, ["project:.kilocode/rules/a.md"], logger)).toEqual(["project:.kilocode/rules/a.md"]);
    // An empty template is valid: it means Kiln's own (templateFor).
    expect(validate(KILN.prompts.fix, "", logger)).toBe("");
    expect(logger.warnings).toEqual([]);
  });

  it("the same bad value read again is logged once; another bad value is logged again", () => {
    const logger = recorder();
    const validate = createValidator();
    for (let i = 0; i < 3; i++) expect(validate(KILN.autoApprove.maxRequests, "lots", logger)).toBe(0);
    expect(validate(KILN.autoApprove.maxRequests, -1, logger)).toBe(0);
    expect(validate(KILN.autoApprove.maxRequests, -1, logger)).toBe(0);
    expect(logger.warnings).toEqual([
      expect.stringContaining('setting kiln.autoApproveMaxRequests is "lots", which is not valid; using 0'),
      expect.stringContaining("setting kiln.autoApproveMaxRequests is -1, which is not valid; using 0"),
    ]);
  });

  it("without a logger nothing is logged or remembered: the agent's next read still reports it", () => {
    const logger = recorder();
    const validate = createValidator();
    expect(validate(KILN.commands.sandbox, "yes")).toBe(false);
    expect(validate(KILN.commands.sandbox, "yes", logger)).toBe(false);
    expect(logger.warnings).toHaveLength(1);
  });

  it("the caller's own check refuses a value with its reason", () => {
    const logger = recorder();
    const exists = (slug: string) => (["code", "ask"].includes(slug) ? undefined : "there is no such mode");
    const validate = createValidator();
    expect(validate(KILN.task.mode, "ask", logger, exists)).toBe("ask");
    expect(validate(KILN.task.mode, "gone", logger, exists)).toBe("code");
    expect(logger.warnings).toEqual(['setting kiln.mode is "gone", which is not valid; using "code" (there is no such mode)']);
  });

  it("keeps the quirks the call sites had: a fractional auto-approve limit is floored, budgets take fractions", () => {
    const validate = createValidator();
    expect(validate(KILN.autoApprove.maxRequests, 2.7)).toBe(2);
    expect(validate(KILN.budget.maxCost, 0.5)).toBe(0.5);
    expect(validate(KILN.checkpoints.timeBudgetSeconds, 2.5)).toBe(2.5);
  });

  it("a long default is named, not dumped, in the log", () => {
    const logger = recorder();
    expect(createValidator()(KILN.prompts.explain, 42, logger)).toMatch(/^Explain the following code/);
    expect(logger.warnings[0]).toMatch(/^setting kiln\.prompts\.explain is 42, which is not valid; using Kiln's built-in template/);
  });

  it("a default list is a fresh copy at each read", () => {
    const validate = createValidator();
    validate(KILN.rules.disabled, 5).push("changed");
    expect(validate(KILN.rules.disabled, 5)).toEqual([]);
  });
});

describe("a section", () => {
  it("checks each field on its own: one wrong value keeps the others", () => {
    const logger = recorder();
    const raw: Record<string, unknown> = { "checkpoints.enabled": false, "checkpoints.maxFileSizeMB": 5000, "checkpoints.timeBudgetSeconds": 30 };
    expect(validateSection(KILN.checkpoints, (key) => raw[key], createValidator(), logger)).toEqual({ enabled: false, maxFileSizeMB: 5, timeBudgetSeconds: 30, maxTotalMB: 500 });
    expect(logger.warnings).toEqual([expect.stringContaining("setting kiln.checkpoints.maxFileSizeMB is 5000, which is not valid; using 5")]);
  });
});

interface Contributed {
  type?: string | string[];
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}
const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { contributes: { configuration: { properties: Record<string, Contributed> } } };
const contributed = manifest.contributes.configuration.properties;
const all = Object.values(KILN).flatMap((section) => Object.values(section) as Setting<unknown>[]);
/** Read as set and checked in depth elsewhere (profiles, model overrides, the provider kind). */
const isUnchecked = (s: Setting<unknown>) => s.schema instanceof z.ZodUnknown;

describe("the sections and package.json", () => {
  it("every contributed kiln.* setting has exactly one field, and every field a contributed setting", () => {
    const keys = all.map((s) => `kiln.${s.key}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.keys(contributed).sort());
  });

  it("a checked field's default is the contributed default", () => {
    for (const s of all.filter((s) => !isUnchecked(s))) expect(s.fallback, `kiln.${s.key}`).toEqual(contributed[`kiln.${s.key}`]!.default);
  });

  it("a checked field refuses what the settings editor refuses: outside the bounds, or not in the enum", () => {
    const validate = createValidator();
    for (const s of all.filter((s) => !isUnchecked(s))) {
      const spec = contributed[`kiln.${s.key}`]!;
      const step = spec.type === "integer" ? 1 : 0.001;
      if (spec.minimum !== undefined) {
        expect(validate(s, spec.minimum), `kiln.${s.key} at its minimum`).toBe(spec.minimum);
        expect(validate(s, spec.minimum - step), `kiln.${s.key} below its minimum`).toEqual(s.fallback);
      }
      if (spec.maximum !== undefined) {
        expect(validate(s, spec.maximum), `kiln.${s.key} at its maximum`).toBe(spec.maximum);
        expect(validate(s, spec.maximum + step), `kiln.${s.key} above its maximum`).toEqual(s.fallback);
      }
      for (const value of spec.enum ?? []) expect(validate(s, value), `kiln.${s.key}: ${String(value)}`).toBe(value);
    }
  });

  it("the settings panel's fields are the same settings, with the defaults the panel shows", () => {
    for (const [field, key] of Object.entries(APPROVE_SETTING)) expect(APPROVE_FIELDS[field as keyof typeof APPROVE_SETTING].key).toBe(key);
    for (const [field, key] of Object.entries(OPTION_SETTING)) {
      const s = OPTION_FIELDS[field as keyof typeof OPTION_SETTING];
      expect(s.key).toBe(key);
      expect(s.fallback).toEqual(OPTION_DEFAULTS[field as keyof typeof OPTION_DEFAULTS]);
    }
  });
});
