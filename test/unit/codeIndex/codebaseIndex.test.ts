import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CodebaseIndex } from "../../../src/core/codeIndex/codebaseIndex";
import { runToolCall, type PipelineDeps, type ToolCallResult } from "../../../src/core/agent/pipeline";
import { findMode } from "../../../src/core/modes/modes";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";

let root: string;

function put(path: string, text: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const HASH = `import { scryptSync } from "node:crypto";

/** Salted, so one password gives two users different hashes. */
export function hashPassword(plain: string, salt: string): string {
  return scryptSync(plain, salt, 64).toString("hex");
}

export function verifyPassword(plain: string, salt: string, hash: string): boolean {
  return hashPassword(plain, salt) === hash;
}
`;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-index-"));
  put("src/auth/passwords.ts", HASH);
  put("src/ui/button.ts", "export function renderButton(label: string): string {\n  // no password here\n  return label;\n}\n");
  put("docs/guide.md", "# Guide\n\nHow to start.\n\n## Sessions\n\nA session token is refreshed every hour.\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the codebase index", () => {
  it("ranks the function named after the query first, with its lines as they are on disk", async () => {
    const index = new CodebaseIndex(root);
    const summary = await index.refresh();
    expect(summary.filesTotal).toBe(3);
    const hits = await index.search("hash password");
    expect(hits[0]).toMatchObject({ path: "src/auth/passwords.ts", symbols: expect.arrayContaining(["hashPassword"]), score: 1 });
    expect(hits[0]!.text).toContain("export function hashPassword(plain: string, salt: string): string {");
    expect(
      HASH.split("\n")
        .slice(hits[0]!.startLine - 1, hits[0]!.endLine)
        .join("\n"),
    ).toBe(hits[0]!.text);
    expect((await index.search("session token refreshed"))[0]?.path).toBe("docs/guide.md");
  });

  it("leaves out ignored files, build folders, lock files, binaries and files over 1 MB", async () => {
    put(".gitignore", "secret-notes.ts\n");
    put("secret-notes.ts", "export function hashPasswordSecretly() {}\n");
    put(".kilocodeignore", "private/\n");
    put("private/keys.ts", "export function hashPasswordPrivately() {}\n");
    put("node_modules/lib/index.js", "function hashPasswordFromDependency() {}\n");
    put("dist/bundle.js", "function hashPasswordBuilt() {}\n");
    put("package-lock.json", '{"hashPassword": 1}\n');
    put("image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, ...Buffer.from("hashPassword")]));
    put("huge.ts", `export const hashPasswordTable = "${"x".repeat(1024 * 1024)}";\n`);
    const index = new CodebaseIndex(root);
    await index.refresh();
    const paths = new Set((await index.search("hash password", { limit: 50 })).map((h) => h.path));
    expect([...paths][0]).toBe("src/auth/passwords.ts");
    for (const left of ["secret-notes.ts", "private/keys.ts", "node_modules/lib/index.js", "dist/bundle.js", "package-lock.json", "image.png", "huge.ts"]) expect(paths).not.toContain(left);
  });

  it("a refresh chunks only what changed; an edited file's new code is found and its old code is gone", async () => {
    const index = new CodebaseIndex(root);
    await index.refresh();
    expect((await index.refresh()).changed).toBe(0);
    put("src/ui/button.ts", "export function renderPasswordField(label: string): string {\n  return label;\n}\n");
    // A touched file with the same bytes is read, but not chunked again.
    utimesSync(join(root, "src/auth/passwords.ts"), new Date(), new Date(Date.now() + 5000));
    const summary = await index.refresh();
    expect(summary).toMatchObject({ changed: 1, removed: 0, filesTotal: 3 });
    expect((await index.search("render password field"))[0]?.symbols).toContain("renderPasswordField");
    expect((await index.search("renderButton")).map((h) => h.text).join("\n")).not.toContain("renderButton");
    rmSync(join(root, "docs/guide.md"));
    expect((await index.refresh()).removed).toBe(1);
    expect(await index.search("session token")).toEqual([]);
  });

  it("searches under a folder only, and refreshPaths takes a watcher's changes", async () => {
    const index = new CodebaseIndex(root);
    await index.refresh();
    expect((await index.search("password", { under: "src/ui" })).map((h) => h.path)).toEqual(["src/ui/button.ts"]);
    put("src/ui/login.ts", "export function showLoginForm() {}\n");
    await index.refreshPaths(["src/ui/login.ts"]);
    expect((await index.search("login form"))[0]?.path).toBe("src/ui/login.ts");
    rmSync(join(root, "src/ui/login.ts"));
    await index.refreshPaths(["src/ui/login.ts"]);
    expect(await index.search("login form")).toEqual([]);
  });
});

/** A codebase_search call through the pipeline, as a task makes it: reads auto-approved. */
async function call(params: Record<string, string>, index: CodebaseIndex | undefined): Promise<ToolCallResult> {
  const deps: PipelineDeps = {
    registry: createDefaultRegistry(),
    mode: findMode("ask")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
    context: { cwd: root, fs: new NodeFileSystem(), signal: new AbortController().signal, ...(index && { codeIndex: index }) },
    maxResultChars: 1_000_000,
  };
  return runToolCall({ type: "tool_use", name: "codebase_search", params, partial: false } satisfies ToolUseBlock, deps);
}

describe("codebase_search", () => {
  it("answers with each hit as path:start-end, its score and numbered lines, grouped by file", async () => {
    const outcome = await call({ query: "verify password" }, new CodebaseIndex(root));
    expect(outcome.status).toBe("done");
    const text = outcome.forModel;
    expect(text).toMatch(/^\d+ results? for "verify password" in \d+ files? of the workspace, best first\./);
    expect(text).toContain("# src/auth/passwords.ts\n## src/auth/passwords.ts:");
    expect(text).toMatch(/:8-10 score 1\.00 \(verifyPassword\)\n 8 \| export function verifyPassword/);
  });

  it("says clearly what is wrong: an empty query, a missing or hidden path, no index; and when nothing matches", async () => {
    const index = new CodebaseIndex(root);
    const failure = async (params: Record<string, string>, withIndex = true) => {
      const result = await call(params, withIndex ? index : undefined);
      expect(result.status).toBe("error");
      return result.forModel;
    };
    expect(await failure({ query: "  " })).toContain("Parameter <query> must not be empty");
    expect(await failure({ query: "x", path: "nope" })).toContain("does not exist");
    put(".kilocodeignore", "docs/\n");
    expect(await failure({ query: "x", path: "docs" })).toContain(".kilocodeignore");
    expect(await failure({ query: "x" }, false)).toContain("turned off");
    const none = await call({ query: "kubernetes helm chart" }, index);
    expect(none.forModel).toMatch(/^No indexed code in the workspace matches "kubernetes helm chart" \(\d+ files, \d+ chunks indexed\)/);
  });
});
