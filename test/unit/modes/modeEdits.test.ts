import { describe, expect, it } from "vitest";
import { parseModesFile } from "../../../src/core/modes/customModes";
import { checkMode, removeMode, upsertMode, type ModeInput } from "../../../src/core/modes/modeFileEdits";
import { inPseudoLocale, translated } from "../pseudoL10n";

const FILE = "/ws/.kilocodemodes";

function input(extra: Partial<ModeInput> = {}): ModeInput {
  return { slug: "docs", name: "Docs", roleDefinition: "You write docs.", groups: ["read", ["edit", { fileRegex: "\\.md$" }]], ...extra };
}

function edited(result: ReturnType<typeof upsertMode> | ReturnType<typeof removeMode>): string {
  if (!result.ok) throw new Error(result.message);
  return result.text;
}

const YAML_FILE = `# Team modes, reviewed in PRs
customModes:
  - slug: reviewer # keeps its comment
    name: Reviewer
    roleDefinition: You review code.
    groups: [read]
    iconName: codicon-eye
  - slug: tester
    name: Tester
    roleDefinition: You write tests.
    groups: [read, command]
`;

describe("mode file edits", () => {
  it("adds a mode to a missing file as YAML the loader reads back", () => {
    const text = edited(upsertMode(undefined, FILE, undefined, input({ whenToUse: "  Writing Markdown  ", description: "" })));
    const back = parseModesFile(text, FILE);
    expect(back.errors).toEqual([]);
    expect(back.modes).toEqual([
      {
        slug: "docs",
        name: "Docs",
        roleDefinition: "You write docs.",
        whenToUse: "Writing Markdown",
        description: undefined,
        customInstructions: undefined,
        groups: ["read", ["edit", { fileRegex: "\\.md$" }]],
        source: FILE,
      },
    ]);
    expect(text).not.toContain("description");
  });

  it("keeps the other modes, their extra fields and the comments of a YAML file", () => {
    const text = edited(upsertMode(YAML_FILE, FILE, undefined, input()));
    expect(text).toContain("# Team modes, reviewed in PRs");
    expect(text).toContain("# keeps its comment");
    expect(text).toContain("iconName: codicon-eye");
    expect(parseModesFile(text, FILE).modes.map((m) => m.slug)).toEqual(["reviewer", "tester", "docs"]);
  });

  it("edits a mode in place, renaming it, dropping an emptied field and keeping fields the form does not show", () => {
    const text = edited(upsertMode(YAML_FILE, FILE, "reviewer", input({ slug: "critic", name: "Critic", roleDefinition: "You criticise.", groups: ["read", "mcp"] })));
    const modes = parseModesFile(text, FILE).modes;
    expect(modes.map((m) => [m.slug, m.name, m.groups])).toEqual([
      ["critic", "Critic", ["read", "mcp"]],
      ["tester", "Tester", ["read", "command"]],
    ]);
    expect(text).toContain("iconName: codicon-eye");
    const cleared = edited(upsertMode(edited(upsertMode(undefined, FILE, undefined, input({ customInstructions: "Be brief." }))), FILE, "docs", input({ customInstructions: "   " })));
    expect(cleared).not.toContain("customInstructions");
  });

  it("a JSON file stays JSON, with its other keys", () => {
    const json = JSON.stringify({ note: "kept", customModes: [{ slug: "tester", name: "Tester", roleDefinition: "You test.", groups: ["read"] }] }, null, 2);
    const text = edited(upsertMode(json, FILE, undefined, input()));
    const data = JSON.parse(text) as { note: string; customModes: { slug: string }[] };
    expect(data.note).toBe("kept");
    expect(data.customModes.map((m) => m.slug)).toEqual(["tester", "docs"]);
    const removed = JSON.parse(edited(removeMode(text, FILE, "tester"))) as { customModes: { slug: string }[] };
    expect(removed.customModes.map((m) => m.slug)).toEqual(["docs"]);
  });

  it("the commented example file (customModes: []) gets a block list", () => {
    const example = "# Custom modes for Kiln\ncustomModes: []\n# Example: ...\n";
    const text = edited(upsertMode(example, FILE, undefined, input()));
    expect(text).toMatch(/customModes:\n {2}- slug: docs/);
    expect(text).toContain("# Example: ...");
  });

  it("refuses bad input, naming the file and the field", () => {
    const cases: [Partial<ModeInput>, string, RegExp][] = [
      [{ slug: "my mode" }, "slug", /\/ws\/\.kilocodemodes: mode "my mode": slug: use letters, digits and dashes/],
      [{ slug: " " }, "slug", /slug is required/],
      [{ name: "" }, "name", /name is required/],
      [{ roleDefinition: "  " }, "roleDefinition", /roleDefinition is required/],
      [{ groups: ["read", ["edit", { fileRegex: "([a-z" }]] }, "fileRegex", /groups\.1\.1\.fileRegex: is not a valid regular expression/],
      [{ groups: ["read", "shell" as "read"] }, "groups", /groups\.1/],
      [{ groups: ["read", "read"] }, "groups", /read is listed twice/],
    ];
    for (const [change, field, message] of cases) {
      const result = upsertMode(YAML_FILE, FILE, undefined, input(change));
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.field).toBe(field);
      expect(result.message).toMatch(message);
      expect(result.message).toContain(FILE);
    }
    expect(checkMode(input(), FILE).ok).toBe(true);
  });

  it("refuses a slug used by another mode in the file, and a mode that is not there", () => {
    const clash = upsertMode(YAML_FILE, FILE, undefined, input({ slug: "tester" }));
    expect(clash).toMatchObject({ ok: false, field: "slug" });
    const renameClash = upsertMode(YAML_FILE, FILE, "reviewer", input({ slug: "tester" }));
    expect(renameClash).toMatchObject({ ok: false, field: "slug" });
    expect(upsertMode(YAML_FILE, FILE, "nobody", input())).toMatchObject({ ok: false, message: expect.stringContaining('no mode "nobody"') });
  });

  it("refuses to touch a file it cannot read as modes", () => {
    expect(upsertMode("customModes: [\n  - broken", FILE, undefined, input())).toMatchObject({ ok: false, message: expect.stringMatching(/\.kilocodemodes: not valid YAML/) });
    expect(upsertMode('{"customModes": [', FILE, undefined, input())).toMatchObject({ ok: false, message: expect.stringMatching(/not valid JSON/) });
    expect(upsertMode("customModes: 3\n", FILE, undefined, input())).toMatchObject({ ok: false, message: expect.stringMatching(/customModes must be a list/) });
  });

  it("removes a custom mode and keeps the rest; a built-in cannot be removed", () => {
    const text = edited(removeMode(YAML_FILE, FILE, "reviewer"));
    expect(parseModesFile(text, FILE).modes.map((m) => m.slug)).toEqual(["tester"]);
    expect(text).toContain("# Team modes, reviewed in PRs");
    expect(removeMode(YAML_FILE, FILE, "code")).toMatchObject({ ok: false, message: expect.stringMatching(/built in and cannot be deleted/) });
    expect(removeMode(YAML_FILE, FILE, "ghost")).toMatchObject({ ok: false, message: expect.stringContaining(FILE) });
    // A custom mode overriding a built-in is in the file, so it can go (the built-in comes back).
    const overriding = edited(upsertMode(YAML_FILE, FILE, undefined, input({ slug: "code" })));
    expect(parseModesFile(edited(removeMode(overriding, FILE, "code")), FILE).modes.map((m) => m.slug)).toEqual(["reviewer", "tester"]);
  });
});

describe("a mode edit that cannot be made, in the user's language", () => {
  inPseudoLocale();

  it("says so in a translated sentence that keeps the file and the mode's slug", () => {
    const messages = [
      checkMode(input({ name: "" }), FILE),
      checkMode(input({ groups: ["read", "read"] }), FILE),
      upsertMode("{ not json", "/ws/.kilocodemodes.json", undefined, input()),
      upsertMode(YAML_FILE, FILE, "nobody", input()),
      removeMode(YAML_FILE, FILE, "nobody"),
      removeMode(YAML_FILE, FILE, "code"),
    ].map((result) => (result.ok ? "" : result.message));
    for (const message of messages) expect(translated(message), message).toBe(true);
    expect(messages[3]).toContain("nobody");
    expect(messages[0]).toContain(FILE);
  });
});
