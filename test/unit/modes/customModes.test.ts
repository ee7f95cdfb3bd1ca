import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModes, parseModesFile } from "../../../src/core/modes/customModes";
import { checkMode } from "../../../src/core/modes/modes";

const YAML = `customModes:
  - slug: docs-writer
    name: Docs Writer
    roleDefinition: You write documentation.
    whenToUse: Writing or fixing docs.
    customInstructions: Keep sentences short.
    groups:
      - read
      - - edit
        - fileRegex: \\.(md|mdx)$
          description: Markdown only
    source: project
`;

describe("custom modes", () => {
  it("reads the Kilo/Roo YAML format, with a fileRegex the mode check enforces", () => {
    const { modes, errors } = parseModesFile(YAML, ".kilocodemodes");
    expect(errors).toEqual([]);
    expect(modes).toHaveLength(1);
    const mode = modes[0]!;
    expect(mode).toMatchObject({ slug: "docs-writer", name: "Docs Writer", whenToUse: "Writing or fixing docs.", customInstructions: "Keep sentences short." });
    expect(checkMode(mode, "edit", "write_to_file", ["README.md"])).toEqual({ ok: true });
    expect(checkMode(mode, "edit", "write_to_file", ["src/a.ts"])).toMatchObject({ ok: false, reason: "Docs Writer mode may edit only Markdown; src/a.ts is not one." });
    expect(checkMode(mode, "command", "execute_command", [])).toMatchObject({ ok: false });
  });

  it("reads JSON too", () => {
    const json = JSON.stringify({ customModes: [{ slug: "tester", name: "Tester", roleDefinition: "You test.", groups: ["read", "command"] }] });
    expect(parseModesFile(json, "modes.json").modes.map((m) => m.slug)).toEqual(["tester"]);
  });

  it("names the file, the mode and the field of a bad mode, and keeps the good ones", () => {
    const text = JSON.stringify({
      customModes: [
        { slug: "good", name: "Good", roleDefinition: "ok", groups: ["read"] },
        { slug: "bad group", name: "Bad", roleDefinition: "x", groups: ["read"] },
        { slug: "regex", name: "Regex", roleDefinition: "x", groups: [["edit", { fileRegex: "([" }]] },
        { slug: "nogroups", name: "No groups", roleDefinition: "x", groups: ["teleport"] },
      ],
    });
    const { modes, errors } = parseModesFile(text, "/w/.kilocodemodes");
    expect(modes.map((m) => m.slug)).toEqual(["good"]);
    expect(errors).toEqual([
      '/w/.kilocodemodes: mode "bad group": slug: use letters, digits and dashes',
      '/w/.kilocodemodes: mode "regex": groups.0.1.fileRegex: is not a valid regular expression',
      expect.stringMatching(/^\/w\/\.kilocodemodes: mode "nogroups": groups\.0: /),
    ]);
  });

  it("reports a file that is not YAML, and loads nothing from it", () => {
    const { modes, errors } = parseModesFile("customModes: [\n  - {", "x.yaml");
    expect(modes).toEqual([]);
    expect(errors[0]).toMatch(/^x\.yaml: not valid YAML or JSON/);
  });

  it("project modes override global ones and built-ins by slug; a missing file is fine", () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-modes-"));
    const global = join(dir, "global.yaml");
    writeFileSync(
      global,
      "customModes:\n  - slug: code\n    name: Global Code\n    roleDefinition: g\n    groups: [read]\n  - slug: extra\n    name: Extra\n    roleDefinition: e\n    groups: [read]\n",
    );
    writeFileSync(join(dir, ".kilocodemodes"), "customModes:\n  - slug: extra\n    name: Project Extra\n    roleDefinition: p\n    groups: [read, edit]\n");
    const { modes, errors } = loadModes(dir, global);
    expect(errors).toEqual([]);
    expect(modes.find((m) => m.slug === "code")?.name).toBe("Global Code");
    expect(modes.find((m) => m.slug === "extra")?.name).toBe("Project Extra");
    expect(modes.find((m) => m.slug === "architect")).toBeDefined();
    expect(loadModes(join(dir, "nowhere")).modes.map((m) => m.slug)).toEqual(["code", "architect", "ask", "debug", "orchestrator"]);
  });

  it("reads Roo's .roomodes (YAML or JSON) in place; .kilocodemodes wins on a shared slug", () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-modes-"));
    writeFileSync(
      join(dir, ".roomodes"),
      JSON.stringify({
        customModes: [
          { slug: "reviewer", name: "Reviewer", roleDefinition: "You review.", groups: ["read"], source: "project" },
          { slug: "shared", name: "Roo Shared", roleDefinition: "r", groups: ["read"] },
        ],
      }),
    );
    writeFileSync(join(dir, ".kilocodemodes"), "customModes:\n  - slug: shared\n    name: Kiln Shared\n    roleDefinition: k\n    groups: [read]\n");
    const { modes, errors } = loadModes(dir);
    expect(errors).toEqual([]);
    expect(modes.find((m) => m.slug === "reviewer")).toMatchObject({ name: "Reviewer", groups: ["read"], source: join(dir, ".roomodes") });
    expect(modes.find((m) => m.slug === "shared")?.name).toBe("Kiln Shared");
    writeFileSync(join(dir, ".roomodes"), "customModes:\n  - slug: reviewer\n    name: Reviewer\n    groups: [read]\n");
    // A broken .roomodes names its file and field; the other files' modes still load.
    expect(loadModes(dir).errors).toEqual([`${join(dir, ".roomodes")}: mode "reviewer": roleDefinition: Invalid input: expected string, received undefined`]);
    expect(loadModes(dir).modes.find((m) => m.slug === "shared")?.name).toBe("Kiln Shared");
  });
});
