import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findMode } from "../../../src/core/modes/modes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { WorkspaceIgnore, type IgnoreRules } from "../../../src/core/workspace/ignore";

let cwd: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-listing-"));
});

function write(rel: string, content = "x\n"): void {
  mkdirSync(dirname(join(cwd, rel)), { recursive: true });
  writeFileSync(join(cwd, rel), content);
}

function deps(ignore?: IgnoreRules): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal, ignore },
  };
}

const list = async (path: string, recursive?: boolean, ignore?: IgnoreRules) =>
  (await runToolCall({ type: "tool_use", name: "list_files", params: { path, ...(recursive === undefined ? {} : { recursive: String(recursive) }) }, partial: false }, deps(ignore))).forModel;

describe("WorkspaceIgnore", () => {
  it("applies root and nested .gitignore files as git does", () => {
    write(".gitignore", "*.log\nbuild/\n/top-only.txt\n");
    write("pkg/.gitignore", "!keep.log\ngenerated/\n");
    for (const f of ["a.log", "top-only.txt", "pkg/top-only.txt", "pkg/keep.log", "pkg/other.log", "pkg/generated/x.ts", "build/out.js", "pkg/build/y.js", "src/build.ts"]) write(f);
    const rules = new WorkspaceIgnore(cwd);
    const ignored = (rel: string) => rules.isIgnored(join(cwd, rel));
    expect(ignored("a.log")).toBe(true);
    expect(ignored("top-only.txt")).toBe(true);
    expect(ignored("pkg/top-only.txt")).toBe(false); // anchored to the root .gitignore's folder
    expect(ignored("pkg/keep.log")).toBe(false); // re-included by the deeper file
    expect(ignored("pkg/other.log")).toBe(true);
    expect(ignored("pkg/generated")).toBe(true);
    expect(ignored("pkg/generated/x.ts")).toBe(true);
    expect(ignored("build")).toBe(true);
    expect(ignored("build/out.js")).toBe(true); // inside an ignored folder
    expect(ignored("pkg/build/y.js")).toBe(true);
    expect(ignored("src/build.ts")).toBe(false);
    expect(ignored("src")).toBe(false);
    expect(rules.isIgnored(cwd)).toBe(false);
    expect(rules.isIgnored(join(cwd, "..", "elsewhere.log"))).toBe(false);
    expect(rules.isHiddenFromAgent(join(cwd, "a.log"))).toBe(false); // .gitignore only trims listings
  });

  it("cannot re-include a file whose folder is ignored, like git", () => {
    write(".gitignore", "vendor/\n!vendor/keep.txt\n");
    write("vendor/keep.txt");
    expect(new WorkspaceIgnore(cwd).isIgnored(join(cwd, "vendor/keep.txt"))).toBe(true);
  });

  it("hides .kilocodeignore paths from the agent and reloads the file when it changes", () => {
    write("secrets/key.pem");
    write(".env");
    write("src/a.ts");
    const rules = new WorkspaceIgnore(cwd);
    expect(rules.isHiddenFromAgent(join(cwd, ".env"))).toBe(false);
    writeFileSync(join(cwd, ".kilocodeignore"), ".env\nsecrets/\n");
    expect(rules.isHiddenFromAgent(join(cwd, ".env"))).toBe(true);
    expect(rules.isHiddenFromAgent(join(cwd, "secrets"))).toBe(true);
    expect(rules.isHiddenFromAgent(join(cwd, "secrets/key.pem"))).toBe(true);
    expect(rules.isHiddenFromAgent(join(cwd, "secrets/not-yet-created.txt"))).toBe(true);
    expect(rules.isIgnored(join(cwd, ".env"))).toBe(true);
    expect(rules.isHiddenFromAgent(join(cwd, "src/a.ts"))).toBe(false);
    // Replaced the way editors save (write beside, rename over): same size, new inode.
    writeFileSync(join(cwd, ".kilocodeignore.tmp"), "src/a.ts\n.envx\n");
    renameSync(join(cwd, ".kilocodeignore.tmp"), join(cwd, ".kilocodeignore"));
    expect(rules.isHiddenFromAgent(join(cwd, "src/a.ts"))).toBe(true);
    expect(rules.isHiddenFromAgent(join(cwd, ".env"))).toBe(false);
    rmSync(join(cwd, ".kilocodeignore"));
    expect(rules.isHiddenFromAgent(join(cwd, "src/a.ts"))).toBe(false);
  });

  it("reloads a nested .gitignore edited in place", () => {
    write("lib/.gitignore", "a.txt\n");
    write("lib/a.txt");
    write("lib/b.txt");
    const rules = new WorkspaceIgnore(cwd);
    expect(rules.isIgnored(join(cwd, "lib/a.txt"))).toBe(true);
    writeFileSync(join(cwd, "lib/.gitignore"), "b.txt\n");
    expect(rules.isIgnored(join(cwd, "lib/a.txt"))).toBe(false);
    expect(rules.isIgnored(join(cwd, "lib/b.txt"))).toBe(true);
  });
});

describe("list_files", () => {
  it("leaves out .gitignore'd entries with a count, and .kilocodeignore'd ones without a trace", async () => {
    write(".gitignore", "dist/\n*.log\n");
    write(".kilocodeignore", "secret.txt\n");
    write("dist/bundle.js");
    write("debug.log");
    write("secret.txt");
    write("src/index.ts");
    write("README.md");
    expect(await list(".")).toBe(".gitignore\n.kilocodeignore\nREADME.md\nsrc/\n[2 entries left out by .gitignore.]");
  });

  it("honours nested .gitignore files when recursive and keeps out of node_modules and .git", async () => {
    write("pkg/.gitignore", "gen/\n");
    write("pkg/gen/a.ts");
    write("pkg/src/b.ts");
    write("node_modules/lib/index.js");
    write(".git/HEAD");
    const text = await list(".", true);
    expect(text).toBe([".git/", "node_modules/", "pkg/", "pkg/.gitignore", "pkg/src/", "pkg/src/b.ts", "[1 entry left out by .gitignore.]"].join("\n"));
  });

  it("lists an ignored folder asked for by name, still hiding .kilocodeignore'd files", async () => {
    write(".gitignore", "dist/\n");
    write(".kilocodeignore", "dist/keys.json\n");
    write("dist/app.js");
    write("dist/keys.json");
    expect(await list("dist", true)).toBe("app.js");
  });

  it("refuses a hidden folder and says when all entries are ignored", async () => {
    write(".kilocodeignore", "private/\n");
    write("private/a.txt");
    write("logs/.gitignore", "*\n");
    write("logs/x.txt");
    expect(await list("private")).toMatch(/^Error: private is hidden from Kiln by \.kilocodeignore/);
    expect(await list("logs")).toBe("logs holds nothing that is not ignored.\n[2 entries left out by .gitignore.]");
  });

  it("uses the host's rules when given, re-reading them as they change", async () => {
    write("a.txt");
    write("b.txt");
    const rules = new WorkspaceIgnore(cwd);
    expect(await list(".", false, rules)).toBe("a.txt\nb.txt");
    writeFileSync(join(cwd, ".kilocodeignore"), "b.txt\n");
    expect(await list(".", false, rules)).toBe(".kilocodeignore\na.txt");
  });

  it("stops at 200 entries, nearest first, naming the folders not listed in full", async () => {
    for (let d = 0; d < 5; d++) for (let f = 0; f < 60; f++) write(`d${d}/f${String(f).padStart(2, "0")}.txt`);
    write("top.txt");
    const lines = (await list(".", true)).split("\n");
    expect(lines).toHaveLength(201);
    expect(lines.slice(0, 2)).toEqual(["d0/", "d0/f00.txt"]);
    expect(lines).toContain("top.txt");
    expect(lines).toContain("d4/");
    expect(lines.at(-1)).toBe("[Stopped at 200 entries. Not listed in full: d3/, d4/. List one of those folders to see more.]");
  });

  it("says how to go on when one flat folder holds more than 200 entries", async () => {
    for (let f = 0; f < 250; f++) write(`many/f${String(f).padStart(3, "0")}.json`);
    const lines = (await list("many")).split("\n");
    expect(lines).toHaveLength(201);
    expect(lines.at(-1)).toContain("[Stopped at 200 entries; many holds more, which list_files cannot show.");
  });

  it("stops early in a big tree: the cost follows the cap, not the tree", async () => {
    write(".gitignore", "*.tmp\nnested/ignored/\n");
    for (let d = 0; d < 100; d++) {
      mkdirSync(join(cwd, `d${d}`, "nested", "ignored"), { recursive: true });
      for (let f = 0; f < 30; f++) writeFileSync(join(cwd, `d${d}`, f % 10 === 0 ? `x${f}.tmp` : `f${f}.ts`), "");
    }
    const t0 = performance.now();
    const text = await list(".", true);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(text).toContain("[Stopped at 200 entries.");
  });
});

describe("fetch_instructions", () => {
  const fetch = (task: string) => runToolCall({ type: "tool_use", name: "fetch_instructions", params: { task }, partial: false }, deps());

  it("returns the MCP server guide with a config example that parses", async () => {
    const result = await fetch("create_mcp_server");
    expect(result.status).toBe("done");
    const json = /```json\n([\s\S]*?)```/.exec(result.forModel)![1]!;
    const config = JSON.parse(json) as { mcpServers: Record<string, { command?: string; url?: string }> };
    expect(config.mcpServers.weather!.command).toBe("node");
    expect(config.mcpServers["remote-docs"]!.url).toMatch(/^https:/);
    expect(result.forModel).toContain(".kilocode/mcp.json");
  });

  it("returns the custom mode guide, and names the tasks when given another", async () => {
    const mode = await fetch("create_mode");
    for (const field of ["slug", "name", "roleDefinition", "groups", "whenToUse", ".kilocodemodes"]) expect(mode.forModel).toContain(field);
    expect(mode.forModel).toContain("fileRegex: \\.md$");
    const bad = await fetch("make_coffee");
    expect(bad.status).toBe("error");
    expect(bad.forModel).toContain("must be one of create_mcp_server, create_mode");
  });
});
