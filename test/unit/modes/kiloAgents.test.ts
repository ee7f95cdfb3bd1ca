import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadModes } from "../../../src/core/modes/customModes";
import { groupsOf, kiloAgentToMode, readKiloAgentsFolder, titleFromSlug, type KiloAgentConfig } from "../../../src/core/modes/kiloAgents";

const ALL_GROUPS = ["read", "edit", "command", "browser", "mcp"];

/** An agent file as Kilo's docs describe it: YAML front matter, then the prompt. */
function agentFile(front: string, body = "You review code and report what you find."): string {
  return `---\n${front}\n---\n\n${body}\n`;
}

describe("Kilo v7 agent files as Kiln modes", () => {
  let dir: string;
  let agents: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "kiln-kilo-agents-"));
    agents = join(dir, ".kilo", "agents");
    mkdirSync(agents, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("makes a mode of each file: slug and name from the file name, the body as the role, the description as when to use it", () => {
    writeFileSync(join(agents, "code-reviewer.md"), agentFile("description: Reviews code for bugs\nmode: subagent\nmodel: anthropic/claude-sonnet-4\ntemperature: 0.1\ncolor: accent"));
    writeFileSync(join(agents, "docs.md"), agentFile("name: Technical Writer\nmode: primary", "You write the docs."));
    writeFileSync(join(agents, "plain.md"), "No front matter: the whole file is the prompt.\n");
    writeFileSync(join(agents, "notes.txt"), "not an agent");
    const { modes, errors } = readKiloAgentsFolder(agents);
    expect(errors).toEqual([]);
    expect(modes).toEqual([
      {
        slug: "code-reviewer",
        name: "Code Reviewer",
        roleDefinition: "You review code and report what you find.",
        whenToUse: "Reviews code for bugs",
        description: "Reviews code for bugs",
        groups: ALL_GROUPS,
        source: join(agents, "code-reviewer.md"),
      },
      { slug: "docs", name: "Technical Writer", roleDefinition: "You write the docs.", groups: ALL_GROUPS, source: join(agents, "docs.md") },
      { slug: "plain", name: "Plain", roleDefinition: "No front matter: the whole file is the prompt.", groups: ALL_GROUPS, source: join(agents, "plain.md") },
    ]);
    expect(titleFromSlug("api-2-docs")).toBe("Api 2 Docs");
  });

  it("maps tools and permission to groups: read always, each other group gone only when its tool is off or denied", () => {
    const groups = (agent: Pick<KiloAgentConfig, "tools" | "permission">) => groupsOf(agent);
    expect(groups({})).toEqual(ALL_GROUPS);
    // edit: write, edit and patch all mean editing; any one switched off removes it.
    expect(groups({ tools: { write: false } })).toEqual(["read", "command", "browser", "mcp"]);
    expect(groups({ tools: { edit: false } })).toEqual(["read", "command", "browser", "mcp"]);
    expect(groups({ tools: { write: false, edit: true } })).toEqual(["read", "command", "browser", "mcp"]);
    expect(groups({ permission: { edit: "deny" } })).toEqual(["read", "command", "browser", "mcp"]);
    // "ask" keeps the tool: Kiln's own approvals decide what asks.
    expect(groups({ permission: { edit: "ask", bash: "ask" } })).toEqual(ALL_GROUPS);
    // command: bash off, denied, or denied but for some patterns (which a group cannot say).
    expect(groups({ tools: { bash: false } })).toEqual(["read", "edit", "browser", "mcp"]);
    expect(groups({ permission: { bash: "deny" } })).toEqual(["read", "edit", "browser", "mcp"]);
    expect(groups({ permission: { bash: { "*": "deny", "git log*": "allow" } } })).toEqual(["read", "edit", "browser", "mcp"]);
    expect(groups({ permission: { bash: { "*": "ask", "rm *": "deny" } } })).toEqual(ALL_GROUPS);
    expect(groups({ permission: { bash: { "rm *": "deny", "sudo *": "deny" } } })).toEqual(["read", "edit", "browser", "mcp"]);
    // browser: webfetch.
    expect(groups({ tools: { webfetch: false } })).toEqual(["read", "edit", "command", "mcp"]);
    expect(groups({ permission: { webfetch: "deny" } })).toEqual(["read", "edit", "command", "mcp"]);
    // mcp: only the catch-all reaches every server's tools; a tool named after "*" keeps its own rule.
    expect(groups({ permission: { "*": "deny", edit: "allow" } })).toEqual(["read", "edit"]);
    expect(groups({ tools: { "*": false } })).toEqual(["read"]);
    expect(groups({ permission: "deny" })).toEqual(["read"]);
    expect(groups({ tools: { github_create_issue: false } })).toEqual(ALL_GROUPS);
    // The rules win over the switches, as Kilo merges them.
    expect(groups({ tools: { bash: false }, permission: { bash: "allow" } })).toEqual(ALL_GROUPS);
  });

  it("turns the same settings from a config entry into a mode, and skips a disabled agent without an error", () => {
    const result = kiloAgentToMode("reviewer", { description: "Reviews", prompt: "You review.", permission: { edit: "deny", bash: "deny" } }, undefined, "/c/kilo.jsonc");
    expect(result).toEqual({
      ok: true,
      mode: { slug: "reviewer", name: "Reviewer", roleDefinition: "You review.", whenToUse: "Reviews", description: "Reviews", groups: ["read", "browser", "mcp"], source: "/c/kilo.jsonc" },
    });
    expect(kiloAgentToMode("old", { disable: true }, "x", "/c/kilo.jsonc")).toEqual({ ok: true, disabled: true });
    writeFileSync(join(agents, "retired.md"), agentFile("description: Old\ndisable: true"));
    expect(readKiloAgentsFolder(agents)).toEqual({ modes: [], errors: [] });
  });

  it("reports each broken file with its field, and the other agents still load", () => {
    writeFileSync(join(agents, "good.md"), agentFile("description: Fine"));
    writeFileSync(join(agents, "bad-yaml.md"), agentFile("description: [unclosed"));
    writeFileSync(join(agents, "bad-mode.md"), agentFile("mode: helper"));
    writeFileSync(join(agents, "bad-tools.md"), agentFile("tools:\n  write: no"));
    writeFileSync(join(agents, "bad-permission.md"), agentFile("permission:\n  edit: never"));
    writeFileSync(join(agents, "not_a_slug.md"), agentFile("description: Underscores"));
    writeFileSync(join(agents, "empty.md"), agentFile("description: No prompt", ""));
    writeFileSync(join(agents, "list.md"), agentFile("- a\n- b"));
    mkdirSync(join(agents, "team"));
    writeFileSync(join(agents, "team", "nested.md"), agentFile("description: Nested"));
    const { modes, errors } = readKiloAgentsFolder(agents);
    expect(modes.map((m) => m.slug)).toEqual(["good"]);
    const file = (name: string) => join(agents, name);
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`^${escape(file("bad-mode.md"))}: mode: must be "primary", "subagent" or "all"$`)),
      `${file("bad-permission.md")}: permission.edit: must be "allow", "ask" or "deny", or map tool names to one of those (or to patterns that map to one)`,
      `${file("bad-tools.md")}: tools.write: must map tool names to true or false`,
      expect.stringMatching(new RegExp(`^${escape(file("bad-yaml.md"))}: front matter: not valid YAML: `)),
      `${file("empty.md")}: prompt: the agent has no prompt (the Markdown body, or \`prompt\` in the config)`,
      `${file("list.md")}: front matter: must be a mapping of fields`,
      `${file("not_a_slug.md")}: name: "not_a_slug" cannot be a mode slug: use letters, digits and dashes`,
      `${file("team")}: agents in subfolders are not read: their names hold a slash, which a mode slug cannot`,
    ]);
  });

  it("loadModes reads .kilo/agents in place: global file, then agents, then .roomodes, then .kilocodemodes, a later slug winning", () => {
    const global = join(dir, "global.yaml");
    const mode = (slug: string, name: string) => `  - slug: ${slug}\n    name: ${name}\n    roleDefinition: r\n    groups: [read]\n`;
    writeFileSync(global, `customModes:\n${mode("one", "Global One")}${mode("only-global", "Only Global")}`);
    writeFileSync(join(agents, "one.md"), agentFile("name: Agent One"));
    writeFileSync(join(agents, "two.md"), agentFile("name: Agent Two"));
    writeFileSync(join(agents, "code.md"), agentFile("name: Kilo Code Agent"));
    writeFileSync(join(agents, "broken.md"), agentFile("mode: nope"));
    writeFileSync(join(dir, ".roomodes"), `customModes:\n${mode("two", "Roo Two")}${mode("three", "Roo Three")}`);
    writeFileSync(join(dir, ".kilocodemodes"), `customModes:\n${mode("three", "Kiln Three")}`);
    const { modes, errors } = loadModes(dir, global);
    const name = (slug: string) => modes.find((m) => m.slug === slug)?.name;
    expect(name("only-global")).toBe("Only Global");
    expect(name("one")).toBe("Agent One");
    expect(name("two")).toBe("Roo Two");
    expect(name("three")).toBe("Kiln Three");
    // An agent may override a built-in mode, as a .kilocodemodes entry may.
    expect(modes.find((m) => m.slug === "code")).toMatchObject({ name: "Kilo Code Agent", source: join(agents, "code.md") });
    expect(errors).toEqual([expect.stringContaining(`${join(agents, "broken.md")}: mode: `)]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
