import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { convertApiMessages } from "../../../src/core/import/convertApi";
import { convertUiMessages } from "../../../src/core/import/convertChat";
import { importedTaskId, readTask } from "../../../src/core/import/readTask";
import { defaultStoragePaths, findStorage } from "../../../src/core/import/sources";
import type { SourceUiMessage } from "../../../src/core/import/sourceFormats";
import { CLINE_TASK, FULL_TASK_REQUESTS, PNG_BASE64, ROO_TASKS, writeClineStorage, writeRooStorage } from "../../fixtures/rooStorage";

describe("import: a source's task as a Kiln history task", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "kiln-import-convert-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("makes the chat: user text with images, reasoning on the reply, tool cards, command output, a question, feedback, one completion", async () => {
    const { storage } = writeRooStorage(root);
    const read = await readTask("roo", join(storage, "tasks", ROO_TASKS.full.id), ROO_TASKS.full.id);
    if (!read.ok) throw new Error(read.reason);
    const ui = read.task.ui;
    expect(ui.map((i) => i.role)).toEqual(["user", "assistant", "tool", "tool", "tool", "question", "user", "completion"]);
    expect(ui[0]).toMatchObject({ role: "user", text: `${ROO_TASKS.full.title}\nKeep it short.`, images: [`data:image/png;base64,${PNG_BASE64}`] });
    // The partial copy of the reply is not shown twice; the reasoning said before it rides on it.
    expect(ui[1]).toMatchObject({ role: "assistant", text: "I'll read the README.", reasoning: "The README is at the root; read it first.", partial: false });
    expect(ui[2]).toMatchObject({ role: "tool", name: "read_file", params: { path: "README.md" }, status: "done" });
    expect(ui[3]).toMatchObject({ role: "tool", name: "apply_diff", params: { path: "README.md" } });
    expect(ui[4]).toMatchObject({ role: "tool", name: "execute_command", params: { command: "npm test" }, result: "> test\n1 passing" });
    expect(ui[5]).toEqual({
      id: expect.any(String),
      role: "question",
      question: "Should the greeting be in French too?",
      suggestions: [{ text: "Yes, add French" }, { text: "No, English only", mode: "code" }],
    });
    expect(ui[6]).toMatchObject({ role: "user", text: "English only, please." });
    expect(ui[7]).toMatchObject({ role: "completion", result: "Added a greeting to the README." });
    expect(new Set(ui.map((i) => i.id)).size).toBe(ui.length);
  });

  it("sums tokens, cache and cost from the requests, and takes title, workspace, mode and times from the source", async () => {
    const { storage, project } = writeRooStorage(root);
    const read = await readTask("roo", join(storage, "tasks", ROO_TASKS.full.id), ROO_TASKS.full.id);
    if (!read.ok) throw new Error(read.reason);
    const sum = (key: keyof (typeof FULL_TASK_REQUESTS)[number]) => FULL_TASK_REQUESTS.reduce((n, r) => n + r[key], 0);
    expect(read.task.entry).toMatchObject({
      id: `roo-${ROO_TASKS.full.id}`,
      title: ROO_TASKS.full.title,
      workspace: project,
      mode: "architect",
      model: "unknown",
      tokensIn: sum("tokensIn"),
      tokensOut: sum("tokensOut"),
      cacheRead: sum("cacheReads"),
      cacheWrite: sum("cacheWrites"),
      status: "completed",
      favorite: false,
      importedFrom: "roo",
      // Its history holds native tool calls: resumed, it needs native tools declared.
      protocol: "native",
    });
    expect(read.task.entry.cost).toBeCloseTo(sum("cost"), 10);
    expect(read.task.entry.createdAt).toBe(1_760_000_000_000);
    expect(read.task.entry.updatedAt).toBe(1_760_000_000_230);
  });

  it("keeps kinds Kiln has no counterpart of as text saying what they were, and a stopped task stays stopped", async () => {
    const { storage, otherProject } = writeRooStorage(root);
    const read = await readTask("roo", join(storage, "tasks", ROO_TASKS.xml.id), ROO_TASKS.xml.id);
    if (!read.ok) throw new Error(read.reason);
    const { entry, ui, api } = read.task;
    expect(ui).toContainEqual(expect.objectContaining({ role: "assistant", text: "[roo: say condense_context] Summarised 12 earlier messages." }));
    expect(ui).toContainEqual(
      expect.objectContaining({ role: "tool", name: "use_mcp_tool", params: { server_name: "weather", tool_name: "forecast", arguments: '{"city":"Oslo"}' }, result: "Rain, 7°C" }),
    );
    expect(ui).toContainEqual(expect.objectContaining({ role: "error", error: expect.objectContaining({ message: "The weather server timed out." }) }));
    // Bookkeeping (the request start, the MCP call's start, the resume prompt) shows nowhere.
    expect(JSON.stringify(ui)).not.toMatch(/api_req_started|mcp_server_request_started|resume_task/);
    expect(entry).toMatchObject({ status: "stopped", mode: "code", protocol: "xml", workspace: otherProject, tokensIn: 500, tokensOut: 40, cost: 0.002 });
    expect(api[1]).toEqual({ role: "assistant", content: expect.stringContaining("<use_mcp_tool>") });
  });

  it("shows any unknown ask or say as text, never dropping it", () => {
    const messages: SourceUiMessage[] = [
      { ts: 1, type: "say", say: "text", text: "Go" },
      { ts: 2, type: "say", say: "some_future_kind", text: "payload" },
      { ts: 3, type: "ask", ask: "another_future_ask" },
      { ts: 4, type: "ask", ask: "tool", text: "not json" },
      { ts: 5, type: "ask", ask: "tool", text: JSON.stringify({ tool: "generateImage", path: "cat.png", prompt: "a cat" }) },
    ];
    const { items } = convertUiMessages(messages, "zoo");
    expect(items.slice(1)).toEqual([
      expect.objectContaining({ role: "assistant", text: "[zoo: say some_future_kind] payload" }),
      expect.objectContaining({ role: "assistant", text: "[zoo: ask another_future_ask]" }),
      expect.objectContaining({ role: "assistant", text: "[zoo: ask tool] not json" }),
      // A tool Kiln has no counterpart of keeps its own name and fields.
      expect.objectContaining({ role: "tool", name: "generateImage", params: { path: "cat.png", prompt: "a cat" } }),
    ]);
  });

  it("flattens a tool result's blocks to text and images, and leaves the model's thinking out", async () => {
    const { storage } = writeRooStorage(root);
    const read = await readTask("roo", join(storage, "tasks", ROO_TASKS.full.id), ROO_TASKS.full.id);
    if (!read.ok) throw new Error(read.reason);
    const [first, reply, result] = read.task.api;
    expect(first!.content).toContainEqual({ type: "image", mediaType: "image/png", data: PNG_BASE64 });
    expect(reply!.content).toEqual([
      { type: "text", text: "I'll read the README." },
      { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "README.md" } },
    ]);
    expect(result!.content).toEqual([{ type: "tool_result", toolUseId: "toolu_01", content: "1 | # Project", images: [{ mediaType: "image/png", data: PNG_BASE64 }] }]);
  });

  it("says which message is damaged when a block's fields are wrong", () => {
    expect(() => convertApiMessages([{ role: "user", content: [{ type: "tool_result", content: "no id" }] }], "roo")).toThrow(/\[0\]\.content\[0\].*tool_use_id/);
  });

  it("leaves out what Roo's condense and truncation replaced while their summary or marker is there", () => {
    const history = [
      { role: "user" as const, content: "Build the parser" },
      { role: "assistant" as const, content: "OLD step one", condenseParent: "c1" },
      { role: "user" as const, content: "OLD result one", condenseParent: "c1" },
      { role: "user" as const, content: "Summary: the parser reads tokens.", isSummary: true, condenseId: "c1" },
      { role: "assistant" as const, content: "TRUNCATED step", truncationParent: "t1" },
      { role: "user" as const, content: "[1 message hidden]", isTruncationMarker: true, truncationId: "t1" },
      // Tagged for a summary that a rewind removed: the message is back in use.
      { role: "assistant" as const, content: "Kept: its summary is gone", condenseParent: "gone" },
    ];
    expect(convertApiMessages(history, "roo").map((m) => m.content)).toEqual(["Build the parser", "Summary: the parser reads tokens.", "[1 message hidden]", "Kept: its summary is gone"]);
  });

  it("reports a damaged or incomplete task folder with the reason", async () => {
    const { storage } = writeRooStorage(root);
    const damaged = await readTask("roo", join(storage, "tasks", ROO_TASKS.damaged.id), ROO_TASKS.damaged.id);
    expect(damaged).toEqual({ ok: false, reason: expect.stringMatching(/^ui_messages\.json is not valid JSON/) });
    const missing = await readTask("roo", join(storage, "tasks", ROO_TASKS.missing.id), ROO_TASKS.missing.id);
    expect(missing).toEqual({ ok: false, reason: "api_conversation_history.json is missing" });
  });

  it("reads a Cline task: its list gives the workspace, its metadata the model and plan mode", async () => {
    const { storage } = writeClineStorage(root);
    const listed = { id: CLINE_TASK.id, cwdOnTaskInitialization: CLINE_TASK.workspace };
    const read = await readTask("cline", join(storage, "tasks", CLINE_TASK.id), CLINE_TASK.id, listed);
    if (!read.ok) throw new Error(read.reason);
    expect(read.task.entry).toMatchObject({ id: `cline-${CLINE_TASK.id}`, title: CLINE_TASK.title, workspace: CLINE_TASK.workspace, model: CLINE_TASK.model, mode: "architect", status: "completed" });
    expect(read.task.ui.map((i) => (i.role === "tool" ? `${i.name}:${i.result ?? ""}` : i.role))).toEqual(["user", "search_files:", "execute_command:nothing to commit", "completion"]);
    expect(read.task.ui[1]).toMatchObject({ params: { path: "src", regex: "helper", file_pattern: "*.ts" } });
  });

  it("gives the same source task the same id, within Kiln's id rules", () => {
    expect(importedTaskId("roo", "0b8c1d2e-1111")).toBe("roo-0b8c1d2e-1111");
    expect(importedTaskId("cline", "a b/c.d")).toBe("cline-a_b_c_d");
    expect(importedTaskId("kilo", "x".repeat(100))).toHaveLength(80);
  });
});

describe("import: where a local VS Code keeps each source", () => {
  it("lists VS Code, Insiders and VSCodium for each platform, with the id in lower case", () => {
    expect(defaultStoragePaths("roo", { HOME: "/home/u" }, "linux")).toEqual([
      "/home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline",
      "/home/u/.config/Code - Insiders/User/globalStorage/rooveterinaryinc.roo-cline",
      "/home/u/.config/VSCodium/User/globalStorage/rooveterinaryinc.roo-cline",
    ]);
    expect(defaultStoragePaths("cline", { HOME: "/Users/u" }, "darwin")[0]).toBe("/Users/u/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev");
    expect(defaultStoragePaths("zoo", { APPDATA: "C:\\Users\\u\\AppData\\Roaming" }, "win32")[0]).toBe("C:\\Users\\u\\AppData\\Roaming\\Code\\User\\globalStorage\\zoocodeorganization.zoo-code");
  });

  it("finds the first that exists, whatever the case of the folder's name", () => {
    const home = mkdtempSync(join(tmpdir(), "kiln-import-home-"));
    try {
      expect(findStorage("kilo", { HOME: home }, "linux")).toBeUndefined();
      const folder = join(home, ".config", "VSCodium", "User", "globalStorage", "KiloCode.Kilo-Code");
      mkdirSync(folder, { recursive: true });
      expect(findStorage("kilo", { HOME: home }, "linux")).toBe(folder);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
