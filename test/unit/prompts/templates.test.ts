import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROMPTS, PROMPT_KINDS, capText, fillTemplate, formatProblems, templateFor } from "../../../src/core/prompts/templates";

describe("prompt templates", () => {
  it("fills the file, lines and code into the default Explain prompt", () => {
    const prompt = fillTemplate(DEFAULT_PROMPTS.explain, { filePath: "src/a.ts", startLine: 3, endLine: 5, selectedText: "const a = 1;", userInput: "" });
    expect(prompt).toContain("src/a.ts:3-5");
    expect(prompt).toContain("```\nconst a = 1;\n```");
    expect(prompt).not.toContain("${");
  });

  it("leaves unknown placeholders as written so a typo shows", () => {
    expect(fillTemplate("Look at ${filePath} and ${fileName}", { filePath: "a.ts" })).toBe("Look at a.ts and ${fileName}");
  });

  it("never expands placeholders that come from the values (code may contain ${…})", () => {
    expect(fillTemplate("${selectedText} in ${filePath}", { selectedText: "`${filePath}`", filePath: "x.ts" })).toBe("`${filePath}` in x.ts");
  });

  it("drops a line that holds only an empty placeholder, keeps it when it has text", () => {
    const template = "Fix ${filePath}:\n${diagnostics}\n${userInput}\ncode";
    expect(fillTemplate(template, { filePath: "a.ts", diagnostics: "", userInput: "" })).toBe("Fix a.ts:\ncode");
    expect(fillTemplate(template, { filePath: "a.ts", diagnostics: "- [Error] bad", userInput: "please" })).toBe("Fix a.ts:\n- [Error] bad\nplease\ncode");
    // An unknown placeholder alone on its line is not dropped: it was not given as empty.
    expect(fillTemplate("a\n${other}\nb", {})).toBe("a\n${other}\nb");
  });

  it("uses the user's template unless it is blank or not text", () => {
    expect(templateFor("fix", "Repair ${selectedText}")).toBe("Repair ${selectedText}");
    expect(templateFor("fix", "  ")).toBe(DEFAULT_PROMPTS.fix);
    expect(templateFor("improve", 42)).toBe(DEFAULT_PROMPTS.improve);
  });

  it("caps long text with a note, keeping the start of code and the end of output", () => {
    expect(capText("short", "selection")).toBe("short");
    const head = capText("abcdefghij", "selection", "start", 4);
    expect(head).toBe("abcd\n[Kiln: the selection has 10 characters; only the first 4 are included]");
    const tail = capText("abcdefghij", "terminal output", "end", 4);
    expect(tail).toBe("[Kiln: the terminal output has 10 characters; only the last 4 are included]\nghij");
  });

  it("lists problems with severity, line and source, and is empty without any", () => {
    expect(formatProblems([])).toBe("");
    expect(formatProblems([{ severity: "Error", message: "Expected comma", line: 2, source: "json", code: 514 }])).toBe(
      "Problems reported in this range:\n- [Error] line 2: Expected comma (json 514)",
    );
  });

  it("declares every template as a setting whose default is the one Kiln uses", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    };
    const properties = manifest.contributes.configuration.properties;
    for (const kind of PROMPT_KINDS) expect(properties[`kiln.prompts.${kind}`]?.default, kind).toBe(DEFAULT_PROMPTS[kind]);
  });
});
