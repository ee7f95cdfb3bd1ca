import { describe, expect, it } from "vitest";
import { builtinModeText, modeText } from "../../../src/core/modes/modeText";
import { BUILTIN_MODES, type Mode } from "../../../src/core/modes/modes";
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
