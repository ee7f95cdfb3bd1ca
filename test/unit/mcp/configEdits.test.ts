import { describe, expect, it } from "vitest";
import { addServer, locateServer, removeServer, setServerDisabled, setToolListed, type EditResult } from "../../../src/core/mcp/configEdits";
import { parseMcpConfig, type McpVars } from "../../../src/core/mcp/config";

const FILE = ".kilocode/mcp.json";
const vars: McpVars = { workspaceFolder: "/ws", env: {} };

// As a person (or Kilo, Roo, Cline) wrote it: 4-space indent, a one-line entry, fields Kiln does
// not know, a top-level key of another tool.
const WRITTEN = `{
    "mcpServers": {
        "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "autoApprove": ["read_file"] },
        "everything": {
            "command": "node",
            "args": ["server.js", "stdio"],
            "env": { "DEBUG": "1" },
            "customField": { "kept": true }
        }
    },
    "otherTool": { "theme": "dark" }
}
`;

function ok(result: EditResult): string {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.text;
}

function refused(result: EditResult): { message: string; field?: string } {
  if (result.ok) throw new Error(`expected a refusal, got:\n${result.text}`);
  return result;
}

/** What the loader makes of the text, by server. */
function loaded(text: string) {
  const result = parseMcpConfig(text, FILE, "project", vars);
  expect(result.errors).toEqual([]);
  return Object.fromEntries(result.servers.map((s) => [s.name, s]));
}

describe("disabling and enabling a server", () => {
  it("adds one line to the entry and leaves every other line as written", () => {
    const text = ok(setServerDisabled(WRITTEN, FILE, "everything", true));
    expect(text).toBe(WRITTEN.replace('"customField": { "kept": true }\n', '"customField": { "kept": true },\n            "disabled": true\n'));
    expect(loaded(text).everything!.disabled).toBe(true);
    expect(loaded(text).fs!.disabled).toBe(false);
  });

  it("gives back the very file it started from after disable then enable", () => {
    const disabled = ok(setServerDisabled(WRITTEN, FILE, "fs", true));
    expect(disabled).toContain('"autoApprove": ["read_file"], "disabled": true }');
    expect(ok(setServerDisabled(disabled, FILE, "fs", false))).toBe(WRITTEN);
  });

  it("turns a written false into true, and leaves a file that already says so alone", () => {
    const withFalse = WRITTEN.replace('"command": "node",', '"command": "node",\n            "disabled": false,');
    const text = ok(setServerDisabled(withFalse, FILE, "everything", true));
    expect(text).toBe(withFalse.replace('"disabled": false', '"disabled": true'));
    expect(ok(setServerDisabled(text, FILE, "everything", true))).toBe(text);
    expect(ok(setServerDisabled(WRITTEN, FILE, "everything", false))).toBe(WRITTEN);
  });

  it("refuses a server the file does not have", () => {
    expect(refused(setServerDisabled(WRITTEN, FILE, "nope", true)).message).toBe(`${FILE} has no server "nope"`);
  });
});

describe("a tool's always-allow and disabled lists", () => {
  it("starts the list on a one-line entry, on that line", () => {
    const text = ok(setToolListed(WRITTEN, FILE, "fs", "alwaysAllow", "list_directory", true));
    expect(text).toBe(WRITTEN.replace('"autoApprove": ["read_file"] }', '"autoApprove": ["read_file"], "alwaysAllow": ["list_directory"] }'));
  });

  it("starts the list on its own line in an entry laid out over lines, and appends to it", () => {
    const first = ok(setToolListed(WRITTEN, FILE, "everything", "alwaysAllow", "echo", true));
    expect(first).toBe(WRITTEN.replace('"customField": { "kept": true }\n', '"customField": { "kept": true },\n            "alwaysAllow": ["echo"]\n'));
    const second = ok(setToolListed(first, FILE, "everything", "alwaysAllow", "add", true));
    expect(second).toContain('"alwaysAllow": ["echo", "add"]');
    expect(loaded(second).everything!.alwaysAllow).toEqual(["echo", "add"]);
    // Listing it again changes nothing.
    expect(ok(setToolListed(second, FILE, "everything", "alwaysAllow", "add", true))).toBe(second);
  });

  it("takes out every copy of the tool and keeps the others", () => {
    const text = WRITTEN.replace('"command": "node",', '"command": "node",\n            "disabledTools": ["a", "echo", "b", "echo"],');
    const out = ok(setToolListed(text, FILE, "everything", "disabledTools", "echo", false));
    expect(out).toBe(text.replace('["a", "echo", "b", "echo"]', '["a", "b"]'));
    expect(ok(setToolListed(out, FILE, "everything", "disabledTools", "zzz", false))).toBe(out);
  });

  it("leaves an empty list when the last tool goes, and does nothing to a server without the list", () => {
    const text = ok(setToolListed(WRITTEN, FILE, "everything", "disabledTools", "echo", true));
    expect(ok(setToolListed(text, FILE, "everything", "disabledTools", "echo", false))).toContain('"disabledTools": []');
    expect(ok(setToolListed(WRITTEN, FILE, "fs", "disabledTools", "echo", false))).toBe(WRITTEN);
  });

  it("refuses a list that is not a list, naming it", () => {
    const text = WRITTEN.replace('"command": "node",', '"command": "node",\n            "alwaysAllow": "echo",');
    expect(refused(setToolListed(text, FILE, "everything", "alwaysAllow", "add", true)).message).toMatch(/alwaysAllow is not a list/);
  });
});

describe("deleting a server", () => {
  it("removes the first entry and keeps the layout of the rest", () => {
    const text = ok(removeServer(WRITTEN, FILE, "fs"));
    expect(text).toBe(WRITTEN.replace(/ {8}"fs": .*\n/, ""));
    expect(Object.keys(loaded(text))).toEqual(["everything"]);
  });

  it("removes the last entry with the comma before it", () => {
    const text = ok(removeServer(WRITTEN, FILE, "everything"));
    expect(text).toBe(WRITTEN.replace(/,\n {8}"everything": \{[\s\S]*?\n {8}\}/, ""));
    expect(text).toContain('"otherTool": { "theme": "dark" }');
  });

  it("leaves an empty server list when the only one goes", () => {
    expect(ok(removeServer('{"mcpServers": {"a": {"command": "x"}}}', FILE, "a"))).toBe('{"mcpServers": {}}');
  });
});

describe("adding a server", () => {
  it("adds a stdio server after the others, in the file's indentation, as the loader reads it", () => {
    const text = ok(addServer(WRITTEN, FILE, "project", vars, { name: "git", transport: "stdio", command: "uvx", args: ["mcp-server-git"], env: { TOKEN: "x" } }));
    expect(text.startsWith(WRITTEN.slice(0, WRITTEN.indexOf('"customField"')))).toBe(true);
    expect(text).toContain(
      `        },\n        "git": {\n            "command": "uvx",\n            "args": ["mcp-server-git"],\n            "env": {\n                "TOKEN": "x"\n            }\n        }\n    },\n    "otherTool"`,
    );
    const git = loaded(text).git!;
    expect(git).toMatchObject({ transport: "stdio", command: "uvx", args: ["mcp-server-git"], env: { TOKEN: "x" }, source: "project" });
  });

  it("writes a URL server with its type, and starts a missing or empty file", () => {
    const text = ok(addServer("", FILE, "global", vars, { name: "remote", transport: "sse", url: "https://example.com/mcp" }));
    expect(text).toBe('{\n  "mcpServers": {\n    "remote": {\n      "type": "sse",\n      "url": "https://example.com/mcp"\n    }\n  }\n}\n');
    expect(loaded(text).remote!.transport).toBe("sse");
  });

  it("adds the server list to a file that has none, keeping its other keys", () => {
    const text = ok(addServer('{\n\t"theme": "dark"\n}\n', FILE, "project", vars, { name: "s", transport: "stdio", command: "node" }));
    expect(text).toBe('{\n\t"theme": "dark",\n\t"mcpServers": {\n\t\t"s": {\n\t\t\t"command": "node"\n\t\t}\n\t}\n}\n');
  });

  it("refuses, naming the field, what the loader would refuse", () => {
    const add = (server: Partial<Parameters<typeof addServer>[4]>) => refused(addServer(WRITTEN, FILE, "project", vars, { name: "new", transport: "stdio", ...server }));
    expect(add({ command: "  " })).toEqual({ ok: false, field: "command", message: "command must be a non-empty string" });
    expect(add({ transport: "streamable-http", url: "ftp://host/mcp" })).toEqual({ ok: false, field: "url", message: 'url must be an http or https URL, not "ftp://host/mcp"' });
    expect(add({ transport: "sse", url: "" })).toEqual({ ok: false, field: "url", message: "url must be a non-empty string" });
    expect(add({ name: "fs", command: "node" })).toEqual({ ok: false, field: "name", message: `${FILE} already has a server "fs"` });
    expect(add({ name: " ", command: "node" }).field).toBe("name");
  });

  it("refuses ${workspaceFolder} when no folder is open, as the loader does", () => {
    const result = refused(addServer(WRITTEN, FILE, "global", { env: {} }, { name: "n", transport: "stdio", command: "node", args: ["${workspaceFolder}/x.js"] }));
    expect(result.message).toBe("args uses ${workspaceFolder} but no workspace folder is open");
    expect(result.field).toBe("args");
  });
});

describe("a file that is not valid JSON", () => {
  const broken = '{ "mcpServers": { "fs": { "command": "npx" ';
  it("is refused by every edit, with the loader's reason, and nothing to write", () => {
    for (const result of [
      setServerDisabled(broken, FILE, "fs", true),
      setToolListed(broken, FILE, "fs", "alwaysAllow", "x", true),
      removeServer(broken, FILE, "fs"),
      addServer(broken, FILE, "project", vars, { name: "n", transport: "stdio", command: "node" }),
    ]) {
      expect(refused(result).message).toMatch(/^\.kilocode\/mcp\.json: not valid JSON: .*line 1.*; fix it by hand first \(nothing was written\)$/);
    }
  });

  it("includes JSON with comments, which the loader does not read either", () => {
    expect(refused(setServerDisabled('{\n  // mine\n  "mcpServers": {}\n}', FILE, "fs", true)).message).toMatch(/not valid JSON/);
  });
});

describe("finding a server's entry", () => {
  it("points at its name in the file", () => {
    const at = locateServer(WRITTEN, "everything")!;
    expect(WRITTEN.slice(at.offset, at.offset + 12)).toBe('"everything"');
    expect(WRITTEN.slice(at.offset + at.length - 1, at.offset + at.length)).toBe("}");
    expect(locateServer(WRITTEN, "nope")).toBeUndefined();
  });
});
