// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clipboardText, el, texts } from "./dom";
import { posted } from "./host";
import { Markdown } from "./ui";

function markdown(text: string) {
  const view = render(h(Markdown, { text }));
  return { ...view, root: el(view.container) };
}

describe("Markdown in the chat", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("renders GFM: tables, lists, task items, emphasis", () => {
    const { root } = markdown("# Plan\n\n| a | b |\n|---|---|\n| 1 | **2** |\n\n- one\n- two\n\n- [x] done\n- [ ] open");
    expect(texts(root, "h1")).toEqual(["Plan"]);
    expect(texts(root, "td")).toEqual(["1", "2"]);
    expect(texts(root, "td strong")).toEqual(["2"]);
    expect(root.querySelectorAll("li")).toHaveLength(4);
    expect(root.querySelectorAll('input[type="checkbox"]')).toHaveLength(2);
  });

  it("highlights a labelled code block and copies its code without the final newline", async () => {
    const { root } = markdown("Try:\n\n```ts\nconst answer: number = 42;\n```\n");
    const code = root.querySelector("pre code");
    expect(code?.className).toContain("hljs");
    expect(code?.className).toContain("language-ts");
    expect(texts(root, ".hljs-keyword")[0]).toBe("const");
    expect(texts(root, ".code-language")).toEqual(["ts"]);

    fireEvent.click(screen.getByTestId("copy"));
    await screen.findByText("Copied");
    expect(await clipboardText()).toBe("const answer: number = 42;");
  });

  it("gives every code block its own Copy button", async () => {
    markdown("```sh\nnpm test\n```\n\ntext\n\n```\nplain\n```");
    const buttons = screen.getAllByTestId("copy");
    expect(buttons).toHaveLength(2);
    fireEvent.click(buttons[1]!);
    await waitFor(() => expect(el(buttons[1]).textContent).toBe("Copied"));
    expect(el(buttons[0]).textContent).toBe("Copy");
    expect(await clipboardText()).toBe("plain");
  });

  it("shows raw HTML from the model as text, never as markup", () => {
    const hostile = 'Hi <img src="x" onerror="alert(1)"> <script>alert(2)</script>\n\n<div onclick="x()"><b>bold</b></div>\n\n<iframe src="https://evil.example"></iframe>';
    const { root } = markdown(hostile);
    expect(root.querySelector("img, script, iframe, b, div[onclick]")).toBeNull();
    expect(root.textContent).toContain('<img src="x" onerror="alert(1)">');
    expect(root.textContent).toContain("<b>bold</b>");
  });

  it("opens web links through the host and never navigates the webview", () => {
    markdown("See [the docs](https://example.com/a?b=1) and [local](src/a.ts) and [bad](javascript:alert(1)).");
    // fireEvent returns false when the click's default action (navigation) was prevented.
    expect(fireEvent.click(screen.getByText("the docs"))).toBe(false);
    expect(posted).toEqual([{ type: "chat/openLink", url: "https://example.com/a?b=1" }]);

    expect(fireEvent.click(screen.getByText("local"))).toBe(false);
    fireEvent.click(screen.getByText("bad"));
    expect(posted).toHaveLength(1);
    // react-markdown drops the javascript: URL itself.
    expect(el(screen.getByText("bad")).getAttribute("href") ?? "").not.toContain("javascript");
  });

  it("shows an image as a link to it instead of loading it", () => {
    const { root } = markdown("![chart](https://example.com/c.png)");
    expect(root.querySelector("img")).toBeNull();
    fireEvent.click(screen.getByText("[image: chart]"));
    expect(posted).toEqual([{ type: "chat/openLink", url: "https://example.com/c.png" }]);
  });

  it("renders a streaming reply with an unclosed code fence as code up to the end", () => {
    const { root, rerender } = markdown("Here is the function:\n\n```python\ndef f(x):\n");
    expect(texts(root, "p")).toEqual(["Here is the function:"]);
    expect(root.querySelector("pre code.language-python")?.textContent).toContain("def f(x):");

    rerender(h(Markdown, { text: "Here is the function:\n\n```python\ndef f(x):\n\n    return x\n" }));
    expect(root.querySelectorAll("pre")).toHaveLength(1);
    expect(root.querySelector("pre code")?.textContent).toContain("return x");

    rerender(h(Markdown, { text: "Here is the function:\n\n```python\ndef f(x):\n\n    return x\n```\n\nDone." }));
    expect(root.querySelectorAll("pre")).toHaveLength(1);
    expect(texts(root, "p")).toEqual(["Here is the function:", "Done."]);
  });

  it("leaves an unknown language unhighlighted instead of failing", () => {
    const { root } = markdown("```klingon\nqapla'\n```");
    expect(root.querySelector("pre code")?.textContent).toContain("qapla'");
    expect(screen.getByTestId("copy")).toBeTruthy();
  });
});
