import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HistoryStore } from "../../../src/core/history/HistoryStore";
import { applyImport } from "../../../src/core/import/applyImport";
import { kiloServerToKiln } from "../../../src/core/import/kiloV7Servers";
import { readSource } from "../../../src/core/import/readSource";
import { defaultStoragePaths, findStorage, kiloConfigDir } from "../../../src/core/import/sources";
import type { ImportTargets } from "../../../src/core/import/types";
import { parseMcpConfig } from "../../../src/core/mcp/config";
import { parseModesFile } from "../../../src/core/modes/customModes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { writeKiloStorage } from "../../fixtures/rooStorage";

/** A kilo.jsonc as Kilo v7 users write it: comments, trailing commas, servers of both kinds, inline agents. */
const KILO_JSONC = `{
  "$schema": "https://app.kilo.ai/config.json",
  // Servers: a local one started with npx, a remote one with a token from the environment.
  "mcp": {
    "memory": {
      "type": "local",
      "command": ["npx", "-y", "@modelcontextprotocol/server-memory"],
      "environment": { "MEMORY_FILE": "/tmp/memory.json", },
      "timeout": 30000,
    },
    "paused": { "type": "local", "command": ["uvx", "paused-server"], "enabled": false },
    "docs": {
      "type": "remote",
      "url": "https://mcp.example.com/mcp",
      "headers": { "Authorization": "Bearer {env:DOCS_TOKEN}" },
      "oauth": { "clientId": "abc" },
    },
    /* a string command, written the way other tools write it */
    "broken": { "type": "local", "command": "npx some-server" },
    "org-default": { "enabled": true },
  },
  "agent": {
    "reviewer": {
      "description": "Reviews changes before a merge",
      "mode": "subagent",
      "prompt": "You review code. You never change it.",
      "permission": { "edit": "deny", "bash": { "*": "deny", "git diff*": "allow" } },
    },
    "code": { "model": "anthropic/claude-sonnet-4" },
    "docs-writer": { "prompt": "Overridden by the agent file." },
  },
}
`;

describe("import: Kilo Code v7's kilo.jsonc and agent files", () => {
  let root: string;
  let home: string;
  let configDir: string;
  let targets: ImportTargets;
  const files = new NodeFileSystem();

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "kiln-import-kilo7-"));
    home = join(root, "home");
    configDir = join(home, ".config", "kilo");
    mkdirSync(join(configDir, "agents"), { recursive: true });
    const kiln = join(root, "kiln");
    targets = {
      modesFile: join(kiln, "custom_modes.yaml"),
      rulesDir: join(kiln, "rules"),
      mcpFile: join(kiln, "mcp_settings.json"),
      history: new HistoryStore(join(kiln, "tasks"), files),
      files,
    };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const writeV7 = () => {
    writeFileSync(join(configDir, "kilo.jsonc"), KILO_JSONC);
    writeFileSync(join(configDir, "agents", "docs-writer.md"), "---\ndescription: Writes the docs\npermission:\n  bash: deny\n---\n\nYou write clear documentation.\n");
    writeFileSync(join(configDir, "agents", "broken.md"), "---\ntools: yes\n---\nBody.\n");
  };

  it("is found with only ~/.config/kilo on the machine, once it holds Kilo settings", () => {
    expect(findStorage("kilo", { HOME: home }, "linux")).toBeUndefined();
    writeV7();
    expect(findStorage("kilo", { HOME: home }, "linux")).toBe(configDir);
    expect(defaultStoragePaths("kilo", { HOME: "/home/u" }, "linux").at(-1)).toBe("/home/u/.config/kilo");
    expect(kiloConfigDir({ HOME: "/home/u", XDG_CONFIG_HOME: "/xdg" }, "linux")).toBe("/xdg/kilo");
    // The other sources do not look there.
    expect(defaultStoragePaths("roo", { HOME: "/home/u" }, "linux")).not.toContain("/home/u/.config/kilo");
  });

  it("plans the servers in Kiln's format and the agents as modes; what cannot come is named with why", async () => {
    writeV7();
    const plan = await readSource("kilo", configDir, { home });
    const jsonc = join(configDir, "kilo.jsonc");
    expect(plan.mcp).toEqual([
      { name: "memory", entry: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"], env: { MEMORY_FILE: "/tmp/memory.json" }, timeout: 30 }, from: jsonc },
      { name: "paused", entry: { command: "uvx", args: ["paused-server"], disabled: true }, from: jsonc },
      { name: "docs", entry: { type: "streamable-http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${env:DOCS_TOKEN}" } }, from: jsonc },
    ]);
    expect(plan.skipped.mcp).toEqual([
      { name: "broken", reason: 'command must be a list of texts, the program first: ["npx", "-y", "some-server"]' },
      { name: "org-default", reason: 'has no "type": it only turns on or off a server defined elsewhere, so there is nothing to import' },
    ]);
    expect(plan.notes).toContain(`${jsonc}: server "docs": its oauth settings are left out: Kiln does not sign in to MCP servers with OAuth (give a token in "headers" instead)`);

    expect(plan.modes.map((m) => m.slug)).toEqual(["docs-writer", "reviewer"]);
    expect(plan.modes[0]).toEqual({
      slug: "docs-writer",
      input: {
        slug: "docs-writer",
        name: "Docs Writer",
        roleDefinition: "You write clear documentation.",
        whenToUse: "Writes the docs",
        description: "Writes the docs",
        groups: ["read", "edit", "browser", "mcp"],
      },
      from: join(configDir, "agents", "docs-writer.md"),
    });
    expect(plan.modes[1]!.input).toMatchObject({ name: "Reviewer", roleDefinition: "You review code. You never change it.", groups: ["read", "browser", "mcp"] });
    expect(plan.skipped.modes).toEqual([
      { name: join(configDir, "agents", "broken.md"), reason: "tools: must map tool names to true or false" },
      { name: `agent "code" (${jsonc})`, reason: "has no prompt: it only changes settings of an agent defined elsewhere (such as Kilo's built-in ones)" },
      { name: `agent "docs-writer" (${jsonc})`, reason: `${join(configDir, "agents", "docs-writer.md")} has the same name and is the one Kilo uses` },
    ]);
  });

  it("writes them into Kiln's files, which Kiln's own loaders read back; a second import adds nothing", async () => {
    writeV7();
    const first = await applyImport(await readSource("kilo", configDir, { home }), targets, { dryRun: false });
    expect(first.mcp.imported).toEqual(["memory", "paused", "docs"]);
    expect(first.modes.imported).toEqual(["docs-writer", "reviewer"]);
    const mcp = parseMcpConfig(readFileSync(targets.mcpFile, "utf8"), targets.mcpFile, "global", { workspaceFolder: "/w", env: { DOCS_TOKEN: "t0k" } });
    expect(mcp.errors).toEqual([]);
    expect(mcp.servers.map((s) => [s.name, s.transport, s.disabled])).toEqual([
      ["memory", "stdio", false],
      ["paused", "stdio", true],
      ["docs", "streamable-http", false],
    ]);
    expect(mcp.servers.find((s) => s.name === "docs")?.headers).toEqual({ Authorization: "Bearer t0k" });
    const modes = parseModesFile(readFileSync(targets.modesFile, "utf8"), targets.modesFile);
    expect(modes.errors).toEqual([]);
    expect(modes.modes.map((m) => m.slug)).toEqual(["docs-writer", "reviewer"]);
    const second = await applyImport(await readSource("kilo", configDir, { home }), targets, { dryRun: false });
    expect(second.mcp.imported).toEqual([]);
    expect(second.modes.alreadyThere).toEqual(["docs-writer", "reviewer"]);
  });

  it("reads v7's folder beside v5's storage, v7's mode taken on a shared slug", async () => {
    const { storage } = writeKiloStorage(root);
    writeFileSync(join(configDir, "agents", "translator.md"), "---\ndescription: Translates\n---\nYou translate, v7 style.\n");
    const plan = await readSource("kilo", storage, { home });
    expect(plan.modes.map((m) => [m.slug, m.from])).toEqual([["translator", join(configDir, "agents", "translator.md")]]);
    expect(plan.skipped.modes).toEqual([
      { name: join(storage, "settings", "custom_modes.yaml"), reason: `mode "translator": Kilo v7's ${join(configDir, "agents", "translator.md")} has the same slug and was taken` },
    ]);
    expect(plan.notes).toContain(`Kilo Code v7's settings were read from ${configDir}`);
  });

  it("names the line and column of a kilo.jsonc that is not JSONC, and imports the agent files still", async () => {
    writeFileSync(join(configDir, "kilo.jsonc"), '{\n  "mcp": {\n    "x": { "type": "local" "command": ["a"] }\n  }\n}\n');
    writeFileSync(join(configDir, "agents", "helper.md"), "You help.\n");
    const plan = await readSource("kilo", configDir, { home });
    expect(plan.skipped.mcp).toEqual([{ name: join(configDir, "kilo.jsonc"), reason: "not valid JSONC: CommaExpected at line 3, column 28; its MCP servers and agents are left out" }]);
    expect(plan.modes.map((m) => m.slug)).toEqual(["helper"]);
  });

  it("checks each server's fields before converting it", () => {
    const convert = (value: unknown) => kiloServerToKiln("s", value, "/k/kilo.jsonc");
    expect(convert("npx x")).toEqual({ ok: false, reason: 'must be an object with "type": "local" or "remote"' });
    expect(convert({ type: "stdio", command: ["x"] })).toEqual({ ok: false, reason: 'type must be "local" or "remote", not "stdio"' });
    expect(convert({ type: "local", command: [] })).toMatchObject({ ok: false, reason: expect.stringContaining("command must be a list of texts") });
    expect(convert({ type: "local", command: [" "] })).toEqual({ ok: false, reason: "command's first item, the program to run, is empty" });
    expect(convert({ type: "local", command: ["x"], environment: { PORT: 3000 } })).toEqual({ ok: false, reason: "environment must map variable names to texts" });
    expect(convert({ type: "local", command: ["x"], timeout: 1.5 })).toEqual({ ok: false, reason: "timeout must be a whole number of milliseconds" });
    expect(convert({ type: "remote", url: "ftp://host/mcp" })).toEqual({ ok: false, reason: 'url must be an http or https URL, not "ftp://host/mcp"' });
    expect(convert({ type: "remote", url: "{file:~/.secrets/url}" })).toEqual({ ok: false, reason: "uses {file:…}, which Kiln cannot read from a config: add this server by hand" });
    // Kilo's milliseconds as Kiln's seconds, rounded up and kept within Kiln's bounds.
    expect(convert({ type: "local", command: ["x"], timeout: 500 })).toMatchObject({ ok: true, entry: { timeout: 1 } });
    expect(convert({ type: "local", command: ["x"], timeout: 99_000_000 })).toMatchObject({ ok: true, entry: { timeout: 3600 } });
  });
});
