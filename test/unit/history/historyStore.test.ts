import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HistoryStore } from "../../../src/core/history/HistoryStore";
import { groupHistory } from "../../../src/shared/historyListing";
import { taskToMarkdown } from "../../../src/core/history/markdown";
import type { HistoryEntry, SavedTask } from "../../../src/core/history/types";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";

function entry(id: string, fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id,
    title: `Task ${id}`,
    workspace: "/work/a",
    mode: "code",
    model: "fake-model",
    protocol: "native",
    tokensIn: 10,
    tokensOut: 5,
    cacheRead: 0,
    cacheWrite: 0,
    createdAt: 1_000,
    updatedAt: 1_000,
    favorite: false,
    status: "completed",
    ...fields,
  };
}

function task(id: string, fields: Partial<HistoryEntry> = {}): SavedTask {
  return {
    entry: entry(id, fields),
    api: [
      { role: "user", content: `Fix the bug in ${id}` },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } }] },
    ],
    ui: [
      { id: "m1", role: "user", text: `Fix the bug in ${id}` },
      { id: "m2", role: "tool", name: "read_file", params: { path: "a.ts" }, status: "done", result: "1 | const a = 1;" },
      { id: "m3", role: "completion", result: "Fixed." },
    ],
  };
}

describe("task history on disk", () => {
  let root: string;
  let store: HistoryStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "kiln-history-"));
    store = new HistoryStore(root, new NodeFileSystem());
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("saves a task and loads it back whole, listed newest first", async () => {
    await store.save(task("a1", { updatedAt: 5 }));
    await store.save(task("b2", { updatedAt: 9 }));
    expect((await store.load("a1")).api[0]).toEqual({ role: "user", content: "Fix the bug in a1" });
    expect((await store.load("b2")).ui.at(-1)).toEqual({ id: "m3", role: "completion", result: "Fixed." });
    const list = await store.list();
    expect(list.entries.map((e) => e.id)).toEqual(["b2", "a1"]);
    expect(list.problems).toEqual([]);
  });

  it("saving again replaces the task's line but keeps the user's favourite mark", async () => {
    await store.save(task("a1"));
    await store.setFavorite("a1", true);
    await store.save(task("a1", { tokensIn: 500, updatedAt: 2_000 }));
    const [only] = (await store.list()).entries;
    expect(only).toMatchObject({ id: "a1", tokensIn: 500, favorite: true });
  });

  it("deletes a task's folder and its line", async () => {
    await store.save(task("a1"));
    await store.save(task("b2"));
    await store.delete("a1");
    expect((await store.list()).entries.map((e) => e.id)).toEqual(["b2"]);
    expect(readdirSync(root)).not.toContain("a1");
  });

  it("a task deleted while its chat still saves it does not come back", async () => {
    await store.save(task("a1"));
    await Promise.all([store.delete("a1"), store.save(task("a1", { updatedAt: 5 }))]);
    await store.save(task("a1", { updatedAt: 6 }));
    expect((await store.list()).entries).toEqual([]);
    expect(readdirSync(root)).not.toContain("a1");
  });

  it("a damaged index is kept aside and rebuilt from the task folders", async () => {
    await store.save(task("a1"));
    await store.save(task("b2"));
    writeFileSync(join(root, "index.json"), '{"version": 1, "tasks": [');
    const list = await store.list();
    expect(list.entries.map((e) => e.id).sort()).toEqual(["a1", "b2"]);
    expect(list.problems[0]).toMatch(/history index was damaged .*not valid JSON.*kept as .*index\.json\.damaged-\d+/);
    const aside = readdirSync(root).find((n) => n.startsWith("index.json.damaged-"))!;
    expect(readFileSync(join(root, aside), "utf8")).toBe('{"version": 1, "tasks": [');
  });

  it("a damaged task file is reported with its name and kept aside, never deleted", async () => {
    await store.save(task("a1"));
    writeFileSync(join(root, "a1", "ui_messages.json"), '[{"id": "m1", "role": "martian"}]');
    await expect(store.load("a1")).rejects.toThrow(/ui_messages\.json is damaged \(0\.role: .*\); it was kept as .*ui_messages\.json\.damaged-\d+/);
    expect(readdirSync(join(root, "a1")).some((n) => n.startsWith("ui_messages.json.damaged-"))).toBe(true);
  });

  it("refuses ids that could leave the history folder", async () => {
    await expect(store.save(task("../evil"))).rejects.toThrow();
    await expect(store.load("../../etc")).rejects.toThrow();
    expect(readdirSync(root)).toEqual([]);
  });

  it("many saves at once from one window lose nothing", async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.save(task(`t${i}`, { updatedAt: i }))));
    expect((await store.list()).entries).toHaveLength(30);
  });
});

describe("the history list", () => {
  const entries = [
    entry("a", { title: "Fix login bug", workspace: "/w/one", updatedAt: 3 }),
    entry("b", { title: "Add dark mode", workspace: "/w/two", updatedAt: 5, favorite: true }),
    entry("c", { title: "Login page tests", workspace: "/w/one", updatedAt: 4 }),
  ];

  it("groups by workspace, the current one first, newest first inside", () => {
    const groups = groupHistory(entries, { currentWorkspace: "/w/one" });
    expect(groups.map((g) => [g.workspace, g.entries.map((e) => e.id)])).toEqual([
      ["/w/one", ["c", "a"]],
      ["/w/two", ["b"]],
    ]);
  });

  it("finds tasks by every word of the query, in any case, and filters favourites", () => {
    expect(groupHistory(entries, { query: "LOGIN fix" }).flatMap((g) => g.entries.map((e) => e.id))).toEqual(["a"]);
    expect(groupHistory(entries, { favoritesOnly: true }).flatMap((g) => g.entries.map((e) => e.id))).toEqual(["b"]);
  });
});

describe("exporting a task as Markdown", () => {
  it("shows the conversation with tool calls fenced, even when their output has backticks", () => {
    const saved = task("a1");
    saved.ui[1] = { id: "m2", role: "tool", name: "read_file", params: { path: "a.md" }, status: "done", result: "```js\nx\n```" };
    const md = taskToMarkdown(saved);
    expect(md).toContain("# Task a1");
    expect(md).toContain("## User\n\nFix the bug in a1");
    expect(md).toContain("**read_file** (done)\n\n````\npath: a.md\n\n```js\nx\n```\n````");
    expect(md).toContain("## Result\n\nFixed.");
  });
});
