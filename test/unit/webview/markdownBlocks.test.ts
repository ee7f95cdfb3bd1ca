import { describe, expect, it } from "vitest";
import { splitBlocks } from "../../../webview-ui/src/markdownBlocks";

describe("splitting Markdown into independently rendered pieces", () => {
  it("splits paragraphs, headings and code at blank lines, dropping the blank lines", () => {
    expect(splitBlocks("# Title\n\nFirst paragraph\nstill first.\n\n```ts\nx\n```\n\nLast.\n\n")).toEqual(["# Title", "First paragraph\nstill first.", "```ts\nx\n```", "Last."]);
  });

  it("keeps the earlier pieces' text unchanged while the message grows (their renders stay memoized)", () => {
    const text = "Intro.\n\n```js\nlet a = 1;\n\nlet b = 2;\n```\n\nThen a list:\n\n- one\n- two\n";
    const before = splitBlocks(text.slice(0, 20));
    const after = splitBlocks(text);
    for (let i = 0; i < before.length - 1; i++) expect(after[i]).toBe(before[i]);
    // A list stays with the paragraph before it: a list marker never starts a piece.
    expect(after).toEqual(["Intro.", "```js\nlet a = 1;\n\nlet b = 2;\n```", "Then a list:\n\n- one\n- two"]);
  });

  it("never splits inside a code fence, closed or still streaming", () => {
    expect(splitBlocks("```\na\n\nb\n```")).toEqual(["```\na\n\nb\n```"]);
    expect(splitBlocks("Look:\n\n~~~py\nx = 1\n\nprint(x)")).toEqual(["Look:", "~~~py\nx = 1\n\nprint(x)"]);
    // A shorter run of backticks does not close a longer fence.
    expect(splitBlocks("````md\n```\n\ninner\n````\n\nafter")).toEqual(["````md\n```\n\ninner\n````", "after"]);
  });

  it("keeps loose lists and indented continuations with what they continue", () => {
    expect(splitBlocks("1. first\n\n2. second\n\n   more of second\n\n       code in second\n\nAfter.")).toEqual(["1. first\n\n2. second\n\n   more of second\n\n       code in second", "After."]);
    expect(splitBlocks("- a\n\n- b")).toEqual(["- a\n\n- b"]);
  });

  it("keeps a message with link definitions or footnotes whole (they resolve across pieces)", () => {
    const text = "See [the docs][d].\n\nMore[^1].\n\n[d]: https://example.com\n[^1]: A note.";
    expect(splitBlocks(text)).toEqual([text]);
  });

  it("gives one empty piece for an empty message", () => {
    expect(splitBlocks("")).toEqual([""]);
    expect(splitBlocks("\n\n")).toEqual([""]);
  });
});
