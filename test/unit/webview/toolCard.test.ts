// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withView } from "../../../src/core/agent/presenter";
import type { ToolItem, ToolStatus } from "../../../src/shared/protocol/chat";
import { el, texts } from "./dom";
import { posted } from "./host";
import { ToolCard } from "./ui";

/** A card as the host sends it: with the view its tool presents. */
function tool(name: string, params: Record<string, string>, status: ToolStatus = "streaming", extra: Partial<ToolItem> = {}): ToolItem {
  return withView({ id: "t1", role: "tool", name, params, status, ...extra });
}

function card(item: ToolItem) {
  const view = render(h(ToolCard, { item }));
  const node = screen.getByTestId("message-tool");
  const root = el(node);
  return { ...view, node, root, title: () => root.querySelector(".tool-title")?.textContent ?? "", text: () => root.textContent ?? "" };
}

describe("tool cards", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("read_file: a sentence with the path and line range, filled in as they stream", () => {
    const { title, rerender, root } = card(tool("read_file", { path: "src/gre" }));
    expect(title()).toBe("Kiln wants to read src/gre streaming");
    expect(root.dataset.status).toBe("streaming");
    expect(root.dataset.card).toBe("t1");
    expect(root.dataset.tool).toBe("read_file");
    expect(root.querySelector(".tool-icon")?.className).toContain("codicon-eye");
    rerender(h(ToolCard, { item: tool("read_file", { path: "src/greet.ts", start_line: "10", end_line: "40" }, "running") }));
    expect(title()).toBe("Kiln is reading src/greet.ts:10-40 running");
  });

  it("the path is a link that asks the host to open the file at the first line read", () => {
    const { node } = card(tool("read_file", { path: "src/greet.ts", start_line: "10", end_line: "40" }, "done"));
    const link = within(node).getByTestId("tool-link");
    expect(el(link).textContent).toBe("src/greet.ts:10-40");
    fireEvent.click(link);
    expect(posted).toEqual([{ type: "chat/openFile", path: "src/greet.ts", line: 10 }]);
  });

  it("a running command shows its output so far, Continue while running, Stop and its terminal; they go once it ends", () => {
    const running = tool("execute_command", { command: "npm run dev" }, "running", { output: "ready on :5173\n", controls: ["continue", "stop"] });
    const { node, rerender } = card(running);
    expect(el(within(node).getByTestId("tool-live-output")).textContent).toBe("ready on :5173\n");
    fireEvent.click(within(node).getByTestId("call-continue"));
    fireEvent.click(within(node).getByTestId("call-stop"));
    fireEvent.click(within(node).getByTestId("show-terminal"));
    expect(posted).toEqual([{ type: "chat/callControl", id: "t1", control: "continue" }, { type: "chat/callControl", id: "t1", control: "stop" }, { type: "chat/showTerminal" }]);
    rerender(h(ToolCard, { item: tool("execute_command", { command: "npm run dev" }, "done", { result: "ready on :5173" }) }));
    expect(within(node).queryByTestId("tool-live-output")).toBeNull();
    expect(within(node).queryByTestId("call-stop")).toBeNull();
  });

  it("a command is the title's code; a call with no path has no link", () => {
    const { node, root } = card(tool("execute_command", { command: "npm test" }, "waiting"));
    expect(root.querySelector(".tool-title")?.textContent).toBe("Kiln wants to run npm test waiting");
    expect(root.querySelector("code.tool-target")?.textContent).toBe("npm test");
    expect(within(node).queryByTestId("tool-link")).toBeNull();
  });

  it("read_file with several files lists each with its lines", () => {
    const { title, text } = card(tool("read_file", { args: "<file><path>a.ts</path><line_range>1-20</line_range></file><file><path>b.ts</path>" }));
    expect(title()).toContain("2 files");
    expect(text()).toContain("a.ts lines 1-20");
    expect(text()).toContain("b.ts");
  });

  it("list_files and search_files: where, what and which files", () => {
    card(tool("list_files", { path: "src", recursive: "true" }, "done"));
    expect(screen.getByText("recursive")).toBeTruthy();
    cleanup();
    const { text } = card(tool("search_files", { path: "src", regex: "function\\s+parse\\w*", file_pattern: "*.ts" }, "done"));
    expect(text()).toContain("regexfunction\\s+parse\\w*");
    expect(text()).toContain("insrc");
    expect(text()).toContain("files*.ts");
  });

  it("write_to_file: a live preview while it streams, folded with its line count once done", () => {
    const { rerender, node } = card(tool("write_to_file", { path: "a.ts", content: "line 1\nline 2" }));
    expect(texts(within(node).getByTestId("write-preview"), "pre")).toEqual(["line 1\nline 2"]);
    expect(within(node).getByText("2 lines")).toBeTruthy();

    rerender(h(ToolCard, { item: tool("write_to_file", { path: "a.ts", content: "line 1\nline 2\nline 3\n", line_count: "3" }, "done", { result: "Wrote a.ts" }) }));
    const preview = el(within(node).getByTestId("write-preview"));
    expect(preview.querySelector("pre")).toBeNull();
    expect(within(node).getByText("3 lines")).toBeTruthy();
    fireEvent.click(within(node).getByText("3 lines"));
    expect(preview.querySelector("pre")?.textContent).toBe("line 1\nline 2\nline 3\n");
  });

  it("apply_diff: its SEARCH/REPLACE blocks as -/+ lines, the last one still streaming", () => {
    const diff = "<<<<<<< SEARCH\n:start_line:12\n-------\nold line\n=======\nnew line\nanother\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nsecond old\n\\=======\n=======\nsecond ne";
    const { node } = card(tool("apply_diff", { path: "a.ts", diff }));
    const blocks = within(node).getAllByTestId("diff-block").map(el);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]!.textContent).toContain("at line 12");
    expect(texts(blocks[0], ".diff-del")).toEqual(["-old line"]);
    expect(texts(blocks[0], ".diff-add")).toEqual(["+new line", "+another"]);
    // The escaped marker is content, shown without its backslash.
    expect(texts(blocks[1], ".diff-del")).toEqual(["-second old", "-======="]);
    expect(texts(blocks[1], ".diff-add")).toEqual(["+second ne"]);
    expect(within(node).getByText("2 changes: −3 +3")).toBeTruthy();
  });

  it("insert_content and search_and_replace: what goes in and what goes out", () => {
    const { text, root } = card(tool("insert_content", { path: "a.ts", line: "5", content: "import x;\n" }));
    expect(text()).toContain("before line 5");
    expect(root.querySelector(".diff-add")?.textContent).toBe("+import x;");
    cleanup();

    const sr = card(tool("search_and_replace", { path: "a.ts", search: "foo", replace: "bar", use_regex: "true", start_line: "3" }, "waiting"));
    expect(sr.text()).toContain("regex, lines 3-end");
    expect(sr.root.querySelector(".diff-del")?.textContent).toBe("-foo");
    expect(sr.root.querySelector(".diff-add")?.textContent).toBe("+bar");
  });

  it("execute_command: the command on its own line; the output folded, open when the command failed", () => {
    const { node, text } = card(tool("execute_command", { command: "npm test", cwd: "packages/a" }, "done", { result: "all green" }));
    expect(el(within(node).getByTestId("command-line")).textContent).toBe("npm test");
    expect(text()).toContain("packages/a");
    const result = within(node).getByTestId("tool-result");
    expect(el(result).textContent).toBe("Output");
    fireEvent.click(within(result).getByText("Output"));
    expect(el(result).textContent).toContain("all green");

    cleanup();
    const failed = card(tool("execute_command", { command: "npm test" }, "error", { result: "exit code 1" }));
    expect(el(within(failed.node).getByTestId("tool-result")).textContent).toContain("exit code 1");
    expect(failed.root.querySelector(".tool-status")?.className).toContain("status-error");
  });

  it("browser_action: the action in the title, its URL or point below", () => {
    const { title, text } = card(tool("browser_action", { action: "click", coordinate: "450,300" }, "running"));
    expect(title()).toBe("Kiln is using the browser: click running");
    expect(text()).toContain("at450,300");
    cleanup();
    expect(card(tool("browser_action", { action: "launch", url: "http://localhost:3000" })).text()).toContain("http://localhost:3000");
  });

  it("update_todo_list: a checklist, even while its last line streams", () => {
    const { node } = card(tool("update_todo_list", { todos: "- [x] Read the code\n- [-] Write the test\n- [ ] Run it\n- [ ] Cele" }));
    const items = [...el(within(node).getByTestId("checklist")).querySelectorAll("li")];
    expect(items.map((li) => li.dataset.status)).toEqual(["completed", "in_progress", "pending", "pending"]);
    expect(items.map((li) => li.textContent?.slice(2))).toEqual(["Read the code", "Write the test", "Run it", "Cele"]);
  });

  it("new_task: the subtask's mode and instructions", () => {
    const { title, text } = card(tool("new_task", { mode: "architect", message: "Design the cache layer." }));
    expect(title()).toBe("Kiln wants to start a subtask in architect mode streaming");
    expect(text()).toContain("Design the cache layer.");
  });

  it("follow-up questions and completions preview on their card until their own item takes over", () => {
    const { text, rerender } = card(tool("ask_followup_question", { question: "Which file?" }));
    expect(text()).toContain("Which file?");
    rerender(h(ToolCard, { item: tool("ask_followup_question", { question: "Which file?" }, "done") }));
    expect(text()).not.toContain("Which file?");
  });

  it("any other tool (MCP) shows its parameters as labelled values", () => {
    const { title, text } = card(tool("use_mcp_tool", { server_name: "weather", tool_name: "forecast", arguments: '{"city":"Oslo"}' }, "done"));
    expect(title()).toBe("Kiln used weather · forecast done");
    expect(text()).toContain('arguments{"city":"Oslo"}');
  });

  it("a running call's progress shows on its card, and goes once it is done", () => {
    const params = { server_name: "everything", tool_name: "trigger-long-running-operation" };
    const { node, rerender } = card(tool("use_mcp_tool", params, "running", { progress: "2/5 — indexing" }));
    expect(el(within(node).getByTestId("tool-progress")).textContent).toBe("2/5 — indexing");
    rerender(h(ToolCard, { item: tool("use_mcp_tool", params, "done", { result: "Completed" }) }));
    expect(within(node).queryByTestId("tool-progress")).toBeNull();
  });

  it.each<[ToolStatus, string]>([
    ["streaming", "streaming"],
    ["waiting", "waiting"],
    ["running", "running"],
    ["done", "done"],
    ["denied", "denied"],
    ["error", "failed"],
  ])("shows the %s state as a badge", (status, label) => {
    const { node } = card(tool("list_files", { path: "." }, status));
    const badge = el(within(node).getByTestId("tool-status"));
    expect(badge.textContent).toBe(label);
    expect(badge.className).toContain(`status-${status}`);
  });
});

describe("the approval box", () => {
  const waiting = (): ToolItem =>
    tool("write_to_file", { path: "a.ts", content: "x" }, "waiting", {
      approval: { summary: "Write a.ts (1 line)", diff: "--- a.ts\n+++ a.ts\n@@ -0,0 +1 @@\n+x\n-y", outsideWorkspace: false },
    });

  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows the summary and the diff with added and removed lines coloured", () => {
    const { node } = card(waiting());
    expect(el(within(node).getByTestId("approval")).textContent).toContain("Write a.ts (1 line)");
    const diff = el(within(node).getByTestId("approval-diff"));
    expect(texts(diff, ".diff-line")).toEqual(["--- a.ts", "+++ a.ts", "@@ -0,0 +1 @@", "+x", "-y"]);
    expect(diff.querySelector(".diff-add")?.textContent).toBe("+x");
    expect(diff.querySelector(".diff-del")?.textContent).toBe("-y");
    expect(diff.querySelector(".diff-hunk")?.textContent).toContain("@@");
  });

  it("with the diff editor open, sums the change up in one line and keeps the diff folded until asked", () => {
    const diff = "--- a.ts\n+++ a.ts\n@@ -1,2 +1,3 @@\n-old\n+new\n+more\n ctx\n@@ -9 +10 @@\n+end";
    const item = tool("write_to_file", { path: "a.ts", content: "x" }, "waiting", { approval: { summary: "Edit a.ts", diff, outsideWorkspace: false, inEditor: true } });
    const { node, rerender } = card(item);
    const folded = within(node).getByTestId("approval-diff-summary");
    expect(el(folded).querySelector("summary")?.textContent).toBe("+3 −1, 2 changes, open in the diff editor");
    expect(within(node).queryByTestId("approval-diff")).toBeNull();
    // A change discarded in the diff editor: the host sends what is left, and the sum follows.
    rerender(h(ToolCard, { item: { ...item, approval: { ...item.approval!, diff: "--- a.ts\n+++ a.ts\n@@ -9 +9,2 @@\n+end" } } }));
    expect(el(within(node).getByTestId("approval-diff-summary")).querySelector("summary")?.textContent).toBe("+1 −0, 1 change, open in the diff editor");
    fireEvent.click(el(within(node).getByTestId("approval-diff-summary")).querySelector("summary") as never);
    expect(texts(within(node).getByTestId("approval-diff"), ".diff-add")).toEqual(["+end"]);
  });

  it("says so when every change was discarded in the diff editor", () => {
    const item = tool("write_to_file", { path: "a.ts", content: "x" }, "waiting", { approval: { summary: "Edit a.ts", diff: "--- a.ts\n+++ a.ts\n", outsideWorkspace: false, inEditor: true } });
    const { node } = card(item);
    expect(el(within(node).getByTestId("approval-diff-summary")).querySelector("summary")?.textContent).toBe("No change left: every change was discarded");
  });

  it("Approve posts an approval and takes the focus, so Enter approves", () => {
    const { node } = card(waiting());
    const approve = within(node).getByTestId("approve");
    expect(el(approve).ownerDocument.activeElement).toBe(approve);
    fireEvent.click(approve);
    expect(posted).toEqual([{ type: "chat/approval", id: "t1", approved: true }]);
  });

  it("Reject posts a rejection with the feedback typed in the box", () => {
    const { node } = card(waiting());
    fireEvent.change(within(node).getByTestId("feedback"), { target: { value: "  use tabs  " } });
    fireEvent.click(within(node).getByTestId("reject"));
    expect(posted).toEqual([{ type: "chat/approval", id: "t1", approved: false, feedback: "use tabs" }]);
  });

  it("Enter in the feedback box rejects with it; Escape moves the focus there", () => {
    const { node } = card(waiting());
    const feedback = within(node).getByTestId("feedback");
    fireEvent.keyDown(within(node).getByTestId("approve"), { key: "Escape" });
    expect(el(feedback).ownerDocument.activeElement).toBe(feedback);
    fireEvent.change(feedback, { target: { value: "not this file" } });
    fireEvent.keyDown(feedback, { key: "Enter" });
    expect(posted).toEqual([{ type: "chat/approval", id: "t1", approved: false, feedback: "not this file" }]);
  });

  it("is gone once the call is answered", () => {
    const { node, rerender } = card(waiting());
    rerender(h(ToolCard, { item: { ...waiting(), status: "running" } }));
    expect(within(node).queryByTestId("approval")).toBeNull();
  });
});
