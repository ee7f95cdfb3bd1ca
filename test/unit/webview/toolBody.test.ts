// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolItem, ToolStatus } from "../../../src/shared/protocol/chat";
import type { ToolView } from "../../../src/shared/toolView";
import { el, texts } from "./dom";
import { ToolCard } from "./ui";

/** A card drawn from its view alone: the tool's name and parameters are nothing the card reads. */
function card(view: ToolView | undefined, status: ToolStatus = "done", extra: Partial<ToolItem> = {}) {
  const item: ToolItem = { id: "t1", role: "tool", name: "some_tool", params: {}, status, ...(view && { view }), ...extra };
  const rendered = render(h(ToolCard, { item }));
  const node = screen.getByTestId("message-tool");
  const root = el(node);
  const rerender = (view: ToolView, status: ToolStatus) => rendered.rerender(h(ToolCard, { item: { ...item, view, status } }));
  return { node, root, rerender, title: () => root.querySelector(".tool-title")?.textContent ?? "", text: () => root.textContent ?? "" };
}

describe("a tool card draws its view by the kind of body", () => {
  afterEach(cleanup);

  it("the title, then the target, then the state; hovering the title shows it whole", () => {
    const { title, root } = card({ title: "Kiln read", target: "src/a-very-long-folder-name/greet.ts:10-40" });
    expect(title()).toBe("Kiln read src/a-very-long-folder-name/greet.ts:10-40 done");
    expect(root.querySelector(".tool-name")?.textContent?.trim()).toBe("Kiln read");
    expect(root.querySelector(".tool-title")?.getAttribute("title")).toBe("Kiln read src/a-very-long-folder-name/greet.ts:10-40");
    expect(root.querySelector(".tool-fields, pre, ul")).toBeNull();
  });

  it("fields: label and value rows; code and values of several lines as code", () => {
    const { root } = card({
      title: "t",
      body: {
        kind: "fields",
        fields: [
          { label: "in", value: "src" },
          { label: "regex", value: "a+b", code: true },
          { label: "text", value: "one\ntwo" },
        ],
      },
    });
    expect(texts(root, "dt")).toEqual(["in", "regex", "text"]);
    expect(texts(root, "dd")).toEqual(["src", "a+b", "one\ntwo"]);
    expect(texts(root, "dd code")).toEqual(["a+b", "one\ntwo"]);
  });

  it("file: the content open and growing while it streams, folded under its line count once done", () => {
    const { node, rerender } = card({ title: "t", body: { kind: "file", path: "a.ts", content: "one\ntwo" } }, "streaming");
    expect(texts(within(node).getByTestId("write-preview"), "pre")).toEqual(["one\ntwo"]);
    expect(within(node).getByText("2 lines")).toBeTruthy();
    rerender({ title: "t", body: { kind: "file", path: "a.ts", content: "one\ntwo\nthree\n" } }, "done");
    const preview = el(within(node).getByTestId("write-preview"));
    expect(preview.querySelector("pre")).toBeNull();
    fireEvent.click(within(node).getByText("3 lines"));
    expect(preview.querySelector("pre")?.textContent).toBe("one\ntwo\nthree\n");
  });

  it("diff: one small hunk as it is, with where it goes", () => {
    const { node, root } = card({ title: "t", body: { kind: "diff", hunks: [{ label: "before line 5", removed: ["old"], added: ["new", ""] }] } });
    expect(within(node).queryByTestId("diff-preview")).toBeNull();
    const block = el(within(node).getByTestId("diff-block"));
    expect(block.querySelector(".tool-dim")?.textContent).toBe("before line 5");
    expect(texts(root, ".diff-del")).toEqual(["-old"]);
    expect(texts(root, ".diff-add")).toEqual(["+new", "+"]);
  });

  it("diff: several hunks fold under their count once done, open while they stream", () => {
    const hunks = [
      { label: "at line 3", removed: ["a"], added: ["b", "c"] },
      { removed: ["d"], added: [] },
    ];
    const { node, rerender } = card({ title: "t", body: { kind: "diff", hunks } }, "streaming");
    expect(within(node).getAllByTestId("diff-block")).toHaveLength(2);
    expect(within(node).getByText("2 changes: −2 +2")).toBeTruthy();
    rerender({ title: "t", body: { kind: "diff", hunks } }, "done");
    expect(within(node).queryAllByTestId("diff-block")).toHaveLength(0);
    fireEvent.click(within(node).getByText("2 changes: −2 +2"));
    expect(within(node).getAllByTestId("diff-block")).toHaveLength(2);
  });

  it("diff: folded under its count while the approval box below shows the change", () => {
    const approval = { summary: "Edit a.ts (1 change)", diff: "--- a.ts\n+++ a.ts\n@@ -1 +1 @@\n-old\n+new", outsideWorkspace: false };
    const { node } = card({ title: "t", body: { kind: "diff", hunks: [{ removed: ["old"], added: ["new"] }] } }, "waiting", { approval });
    expect(within(node).queryAllByTestId("diff-block")).toHaveLength(0);
    expect(within(node).getByText("1 change: −1 +1")).toBeTruthy();
    expect(texts(within(node).getByTestId("approval-diff"), ".diff-add")).toEqual(["+new"]);
  });

  it("command: the command line and its settings; the result is its output", () => {
    const { node, root } = card({ title: "t", body: { kind: "command", command: "npm test", fields: [{ label: "in", value: "pkg" }] } }, "done", { result: "ok" });
    expect(el(within(node).getByTestId("command-line")).textContent).toBe("npm test");
    expect(texts(root, "dd")).toEqual(["pkg"]);
    expect(el(within(node).getByTestId("tool-result")).textContent).toBe("Output");
  });

  it("a result of any other body is its result", () => {
    const { node } = card({ title: "t", body: { kind: "fields", fields: [{ label: "in", value: "src" }] } }, "done", { result: "a.ts" });
    expect(el(within(node).getByTestId("tool-result")).textContent).toBe("Result");
  });

  it("files: each path with its note", () => {
    const { root } = card({ title: "t", target: "2 files", body: { kind: "files", files: [{ path: "a.ts", note: "lines 1-20" }, { path: "b.ts" }] } });
    expect(texts(root, ".tool-files li")).toEqual(["a.ts lines 1-20", "b.ts"]);
    expect(texts(root, ".tool-files .tool-dim")).toEqual([" lines 1-20"]);
  });

  it("markdown: the text drawn as Markdown", () => {
    const { root } = card({ title: "t", body: { kind: "markdown", text: "Which **file**?\n\n- a.ts\n- b.ts" } }, "waiting");
    expect(root.querySelector(".tool-markdown strong")?.textContent).toBe("file");
    expect(texts(root, ".tool-markdown li")).toEqual(["a.ts", "b.ts"]);
  });

  it("checklist: its text above, each item with its state", () => {
    const items = [{ text: "Read", status: "completed" as const }, { text: "Write", status: "in_progress" as const }, { text: "not an item" }];
    const { node, root } = card({ title: "t", body: { kind: "checklist", text: "Design it.", items } }, "streaming");
    expect(root.querySelector(".tool-markdown")?.textContent).toBe("Design it.");
    const shown = [...el(within(node).getByTestId("checklist")).querySelectorAll("li")];
    expect(shown.map((li) => li.dataset.status)).toEqual(["completed", "in_progress", "text"]);
    expect(shown.map((li) => li.textContent)).toEqual(["☑ Read", "◐ Write", "not an item"]);
  });

  it("a card saved without a view shows its name and its parameters as labelled values", () => {
    const { title, root } = card(undefined, "done", { name: "old_tool", params: { path: "a.ts", depth: "2" } });
    expect(title()).toBe("old_tool done");
    expect(texts(root, "dt")).toEqual(["path", "depth"]);
    expect(texts(root, "dd")).toEqual(["a.ts", "2"]);
  });
});
