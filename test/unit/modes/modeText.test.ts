import { describe, expect, it } from "vitest";
import { builtinModeText, modeText, refusalText } from "../../../src/core/modes/modeText";
import { BUILTIN_MODES, checkMode, type Mode } from "../../../src/core/modes/modes";
import { buildSystemPrompt } from "../../../src/core/prompts/system";
import { inPseudoLocale, useEnglish } from "../pseudoL10n";

/** The translators' note on a mode's name: part of its key in a bundle. */
const NAME = "the name of a built-in mode, in the mode picker";

describe("built-in modes' words for people", () => {
  it("in English, are the built-ins' own name and when-to-use line", () => {
    useEnglish();
    for (const mode of BUILTIN_MODES) expect(builtinModeText(mode.slug)).toEqual({ name: mode.name, description: mode.whenToUse });
    expect(builtinModeText("docs")).toBeUndefined();
  });

  describe("in another language", () => {
    inPseudoLocale();

    it("each built-in's name and one line are translated", () => {
      for (const mode of BUILTIN_MODES) expect(modeText(mode)).toEqual({ name: `⟦${mode.name}/${NAME}⟧`, description: `⟦${mode.whenToUse}⟧` });
    });

    it("a custom mode's words are its own, even with a built-in's slug; only what it kept of the built-in is translated", () => {
      const docs: Mode = { slug: "docs", name: "Docs", roleDefinition: "You write docs.", groups: ["read"], whenToUse: "Writing docs." };
      expect(modeText(docs)).toEqual({ name: "Docs", description: "Writing docs." });
      const code = BUILTIN_MODES[0]!;
      expect(modeText({ ...code, name: "Kodierer", source: "/p/.kilocodemodes" })).toEqual({ name: "Kodierer", description: `⟦${code.whenToUse}⟧` });
      expect(modeText({ ...code, description: "Mine." })).toEqual({ name: `⟦Code/${NAME}⟧`, description: "Mine." });
      expect(modeText({ ...code, whenToUse: "Only tests." })).toEqual({ name: `⟦Code/${NAME}⟧`, description: "Only tests." });
    });

    it("the prompt keeps the English: the model works in it", () => {
      const prompt = buildSystemPrompt(BUILTIN_MODES[1]!, "xml", "", { cwd: "/w", os: "Linux", now: new Date(0) });
      expect(prompt).not.toContain("⟦");
      expect(prompt).toContain(BUILTIN_MODES[1]!.roleDefinition);
    });
  });
});

describe("a mode's refusal, for people", () => {
  const architect = BUILTIN_MODES.find((m) => m.slug === "architect")!;
  const ask = BUILTIN_MODES.find((m) => m.slug === "ask")!;
  const docs: Mode = { slug: "docs", name: "Docs Writer", roleDefinition: "r", groups: [["edit", { fileRegex: "\\.md$", description: "Docs only" }]] };
  const refusalOf = (mode: Mode, group: "edit" | "command", tool: string, paths: string[]) => {
    const check = checkMode(mode, group, tool, paths);
    if (check.ok) throw new Error("expected a refusal");
    return check.refusal;
  };

  it("in English, says the rule, the file and the modes that may", () => {
    useEnglish();
    expect(refusalText(architect, refusalOf(architect, "edit", "write_to_file", ["src/a.ts"]), ["code", "debug"])).toBe(
      "Architect mode may edit only Markdown files; src/a.ts is not one. Switch to code or debug mode for this.",
    );
    expect(refusalText(ask, refusalOf(ask, "command", "execute_command", []), ["code"])).toBe("execute_command is not available in Ask mode. Switch to code mode for this.");
    expect(refusalText(docs, refusalOf(docs, "edit", "write_to_file", ["a.ts"]), [])).toBe("Docs Writer mode may edit only Docs; a.ts is not one.");
  });

  describe("in another language", () => {
    inPseudoLocale();

    it("each sentence is translated; the user's own words and the paths stay as they are", () => {
      expect(refusalText(architect, refusalOf(architect, "edit", "write_to_file", ["src/a.ts"]), ["code", "debug"])).toBe(
        `⟦⟦Architect/${NAME}⟧ mode may edit only ⟦Markdown files⟧; src/a.ts is not one.⟧ ⟦Switch to code or debug mode for this.⟧`,
      );
      expect(refusalText(docs, refusalOf(docs, "edit", "write_to_file", ["a.ts"]), [])).toBe("⟦Docs Writer mode may edit only Docs; a.ts is not one.⟧");
    });
  });
});
