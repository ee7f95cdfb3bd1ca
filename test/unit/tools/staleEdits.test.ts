import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalRequest } from "../../../src/core/ports/approvals";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import type { Fingerprint } from "../../../src/core/files/guardedWrite";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";

/**
 * An edit is written only over what it was made from. Here the file changes while the edit waits
 * for approval — as when another task saves it, or the user types in it — and the edit must either
 * be made again on the new content (both changes kept) or not be written, and the model is told.
 */

let cwd: string;
let seen: Map<string, Fingerprint>;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-stale-"));
  seen = new Map();
});

const file = (name = "notes.txt") => join(cwd, name);
const text = (name = "notes.txt") => readFileSync(file(name), "utf8");

/** Every call asks; `meanwhile` changes the file while the question is open, then the user says yes. */
function deps(meanwhile: () => void = () => undefined): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: {
      request: async (_r: ApprovalRequest) => {
        meanwhile();
        return { approved: true };
      },
    },
    autoApprove: { groups: new Set(), outsideWorkspace: false, categories: new Set() },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal, seen },
  };
}

const run = (name: string, params: Record<string, string>, d = deps()) => runToolCall({ type: "tool_use", name, params, partial: false } satisfies ToolUseBlock, d);
const block = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
const LINES = "alpha\nbeta\ngamma\ndelta\nepsilon\n";

describe("an edit whose file changes while it waits", () => {
  it("apply_diff finds its block again in the new content: both changes are kept, and the model is told", async () => {
    writeFileSync(file(), LINES);
    const result = await run(
      "apply_diff",
      { path: "notes.txt", diff: block("beta", "BETA") },
      deps(() => writeFileSync(file(), LINES.replace("epsilon", "EPSILON (the user)"))),
    );
    expect(text()).toBe("alpha\nBETA\ngamma\ndelta\nEPSILON (the user)\n");
    expect(result.forModel).toMatch(/^Applied 1 block to notes\.txt\./);
    expect(result.forModel).toMatch(/notes\.txt had changed after you read it .*made again on the file as it was then/);
  });

  it("apply_diff whose lines were changed by the other side writes nothing and says why", async () => {
    writeFileSync(file(), LINES);
    const result = await run(
      "apply_diff",
      { path: "notes.txt", diff: block("beta", "BETA") },
      deps(() => writeFileSync(file(), LINES.replace("beta", "beta, rewritten by the user"))),
    );
    expect(text()).toBe(LINES.replace("beta", "beta, rewritten by the user"));
    expect(result.forModel).toMatch(/^Error: notes\.txt changed after your edit was made from it .*no longer applies/);
    expect(result.forModel).toMatch(/exactly\. Nothing was written; read the file again/);
  });

  it("search_and_replace is made again on the new content", async () => {
    writeFileSync(file(), LINES);
    const result = await run(
      "search_and_replace",
      { path: "notes.txt", search: "gamma", replace: "GAMMA" },
      deps(() => writeFileSync(file(), `zeta\n${LINES}`)),
    );
    expect(text()).toBe(`zeta\n${LINES.replace("gamma", "GAMMA")}`);
    expect(result.forModel).toMatch(/had changed after you read it/);
  });

  it("insert_content at a line number refuses, appending is made again", async () => {
    writeFileSync(file(), LINES);
    const atLine = await run(
      "insert_content",
      { path: "notes.txt", line: "2", content: "inserted" },
      deps(() => writeFileSync(file(), `zeta\n${LINES}`)),
    );
    expect(atLine.forModel).toMatch(/^Error: notes\.txt changed after your edit was made from it/);
    expect(text()).toBe(`zeta\n${LINES}`);
    const appended = await run(
      "insert_content",
      { path: "notes.txt", line: "0", content: "omega" },
      deps(() => writeFileSync(file(), `${LINES}eta\n`)),
    );
    expect(appended.forModel).toMatch(/^Inserted 1 line/);
    expect(text()).toBe(`${LINES}eta\nomega\n`);
  });

  it("write_to_file does not overwrite a change it never saw", async () => {
    writeFileSync(file(), LINES);
    const result = await run(
      "write_to_file",
      { path: "notes.txt", content: "all new\n" },
      deps(() => writeFileSync(file(), `${LINES}from another task\n`)),
    );
    expect(text()).toBe(`${LINES}from another task\n`);
    expect(result.forModel).toMatch(/^Error: notes\.txt changed after your edit was made from it .*nothing was written/);
  });

  it("write_to_file does not create a file someone else created meanwhile", async () => {
    const result = await run(
      "write_to_file",
      { path: "new.txt", content: "mine\n" },
      deps(() => writeFileSync(file("new.txt"), "theirs\n")),
    );
    expect(text("new.txt")).toBe("theirs\n");
    expect(result.forModel).toMatch(/created it/);
  });

  it("delete_file keeps a file that changed while the deletion waited", async () => {
    writeFileSync(file(), LINES);
    const result = await run(
      "delete_file",
      { path: "notes.txt" },
      deps(() => writeFileSync(file(), `${LINES}kept\n`)),
    );
    expect(existsSync(file())).toBe(true);
    expect(result.forModel).toMatch(/^Error: notes\.txt changed/);
  });
});

describe("write_to_file and what the model last read", () => {
  it("refuses to replace a file changed since the model read it, and writes once it has read it again", async () => {
    writeFileSync(file(), LINES);
    await run("read_file", { path: "notes.txt" });
    writeFileSync(file(), `${LINES}added by another task\n`);
    const refused = await run("write_to_file", { path: "notes.txt", content: "rewritten\n" });
    expect(refused.forModel).toMatch(/^Error: notes\.txt changed after you last read or wrote it/);
    expect(text()).toBe(`${LINES}added by another task\n`);
    await run("read_file", { path: "notes.txt" });
    expect((await run("write_to_file", { path: "notes.txt", content: "rewritten\n" })).forModel).toMatch(/^Overwrote notes\.txt/);
    expect(text()).toBe("rewritten\n");
  });

  it("counts the task's own edits as seen: a rewrite after its own apply_diff goes through", async () => {
    writeFileSync(file(), LINES);
    await run("read_file", { path: "notes.txt" });
    await run("apply_diff", { path: "notes.txt", diff: block("beta", "BETA") });
    expect((await run("write_to_file", { path: "notes.txt", content: "rewritten\n" })).forModel).toMatch(/^Overwrote notes\.txt/);
  });
});
