import { describe, expect, it } from "vitest";
import { AssistantMessageParser, type AssistantContentBlock } from "../../../src/core/toolcall/xml/AssistantMessageParser";
import { randomSplit, rng, soup } from "./split";

const TOOLS = {
  read_file: ["path", "start_line", "end_line", "args"],
  write_to_file: ["path", "content", "line_count"],
  apply_diff: ["path", "diff"],
  attempt_completion: ["result"],
  list_files: ["path", "recursive"],
} as const;

function parse(chunks: readonly string[], limits?: ConstructorParameters<typeof AssistantMessageParser>[1]): AssistantContentBlock[] {
  const parser = new AssistantMessageParser(TOOLS, limits);
  for (const chunk of chunks) parser.processChunk(chunk);
  parser.finalizeContentBlocks();
  return structuredClone(parser.getContentBlocks());
}

const MESSAGES: Record<string, string> = {
  prose: "Let me look at the code first.\nIt uses a < b and a > c and <b>bold</b> tags.",
  read: "I'll read it.\n<read_file>\n<path>src/a.ts</path>\n<start_line>1</start_line>\n</read_file>\nDone.",
  write:
    "Writing:\n<write_to_file>\n<path>docs/x.xml</path>\n<content>\n<root>\n  <content>nested</content>\n</content>\n  <path>not a param</path>\n</content>x <line_count>\n</root>\n</content>\n<line_count>6</line_count>\n</write_to_file>",
  diff: "<apply_diff><path>a.ts</path><diff>\n<<<<<<< SEARCH\nconst a = '</diff>';\n=======\nconst a = 1;\n>>>>>>> REPLACE\n</diff></apply_diff>",
  crlf: "<write_to_file>\r\n<path>w.txt</path>\r\n<content>\r\n  indented\r\n\r\n</content>\r\n<line_count>2</line_count>\r\n</write_to_file>",
  twoTools: "<list_files><path>.</path><recursive>true</recursive></list_files>\n\n<attempt_completion><result>All done.\n</result></attempt_completion>",
  unclosed: "Start <read_file><path>src/partial.ts</path><start_line>3",
  unknownTags: "<thinking>hmm</thinking> <read_fil> <read_filex> <<read_file><path>x</path></read_file>",
  closeThenOther: "<write_to_file><content>a</content>b</content><path>p</path></write_to_file>",
  repeatedClose: "<write_to_file><content>x</content></content>\n</write_to_file>",
};

describe("XML tool-use parser", () => {
  it("reads prose and a tool call into blocks", () => {
    expect(parse([MESSAGES.read!])).toEqual([
      { type: "text", content: "I'll read it.\n", partial: false },
      { type: "tool_use", name: "read_file", params: { path: "src/a.ts", start_line: "1" }, partial: false },
      { type: "text", content: "\nDone.", partial: false },
    ]);
  });

  it("keeps tags inside a value: </content>, <path> and nested same-name tags do not end or hijack it", () => {
    const [, tool] = parse([MESSAGES.write!]);
    expect(tool).toEqual({
      type: "tool_use",
      name: "write_to_file",
      params: {
        path: "docs/x.xml",
        content: "<root>\n  <content>nested</content>\n</content>\n  <path>not a param</path>\n</content>x <line_count>\n</root>",
        line_count: "6",
      },
      partial: false,
    });
  });

  it("keeps a </diff> inside a diff", () => {
    const [tool] = parse([MESSAGES.diff!]);
    expect(tool).toMatchObject({ params: { path: "a.ts", diff: "<<<<<<< SEARCH\nconst a = '</diff>';\n=======\nconst a = 1;\n>>>>>>> REPLACE" } });
  });

  it("strips only the one newline after the opening tag and before the closing tag (LF and CRLF)", () => {
    const [tool] = parse([MESSAGES.crlf!]);
    expect(tool).toMatchObject({ params: { content: "  indented\r\n" } });
    const [completion] = parse(["<attempt_completion><result>\n\n  two blank lines kept?\n\n</result></attempt_completion>"]);
    expect(completion).toMatchObject({ params: { result: "\n  two blank lines kept?\n" } });
  });

  it("only known tool names open a tool, and only that tool's params open a param", () => {
    const blocks = parse([MESSAGES.unknownTags!]);
    expect(blocks[0]).toEqual({ type: "text", content: "<thinking>hmm</thinking> <read_fil> <read_filex> <", partial: false });
    expect(blocks[1]).toMatchObject({ name: "read_file", params: { path: "x" }, partial: false });
    const [tool] = parse(["<read_file><content>ignored</content><path>kept</path></read_file>"]);
    expect(tool).toMatchObject({ params: { path: "kept" } });
  });

  it("a close tag followed by plain text stays in the value", () => {
    expect(parse([MESSAGES.closeThenOther!])[0]).toMatchObject({ params: { content: "a</content>b", path: "p" }, partial: false });
    expect(parse([MESSAGES.repeatedClose!])[0]).toMatchObject({ params: { content: "x</content>" }, partial: false });
  });

  it("leaves an unclosed tool partial at the end of the stream", () => {
    const blocks = parse([MESSAGES.unclosed!]);
    expect(blocks).toEqual([
      { type: "text", content: "Start ", partial: false },
      { type: "tool_use", name: "read_file", params: { path: "src/partial.ts", start_line: "3" }, partial: true },
    ]);
  });

  it("shows a tool and its growing value while it streams", () => {
    const parser = new AssistantMessageParser(TOOLS);
    parser.processChunk("Here <write_to_file><path>a.txt</path><content>hello");
    expect(parser.getContentBlocks()[1]).toEqual({ type: "tool_use", name: "write_to_file", params: { path: "a.txt", content: "hello" }, partial: true });
    parser.processChunk(" world");
    expect(parser.getContentBlocks()[1]).toMatchObject({ params: { content: "hello world" }, partial: true });
  });

  it("never shows half a tag as text and takes it back", () => {
    const parser = new AssistantMessageParser(TOOLS);
    parser.processChunk("Reading <rea");
    expect(parser.getContentBlocks()).toEqual([{ type: "text", content: "Reading ", partial: true }]);
    parser.processChunk("d_file><path>a</path></read_file>");
    expect(parser.getContentBlocks()[0]).toEqual({ type: "text", content: "Reading ", partial: false });
    expect(parser.getContentBlocks()[1]).toMatchObject({ name: "read_file", partial: false });
  });

  it("text grows only by appending while streaming", () => {
    const message = Object.values(MESSAGES).join("\n");
    const parser = new AssistantMessageParser(TOOLS);
    const seen = new Map<number, string>();
    for (const chunk of randomSplit(message, rng(7), 5)) {
      parser.processChunk(chunk);
      parser.getContentBlocks().forEach((block, index) => {
        const now = block.type === "tool_use" ? JSON.stringify(Object.keys(block.params)) : block.content;
        const before = seen.get(index);
        if (block.type === "text" && before !== undefined) expect(now.startsWith(before)).toBe(true);
        seen.set(index, now);
      });
    }
  });

  it("any split of a message gives the same blocks as one chunk (random splits and 1-byte chunks)", () => {
    for (const [name, message] of Object.entries({ ...MESSAGES, all: Object.values(MESSAGES).join("\n") })) {
      const whole = parse([message]);
      expect(parse([...message]), `${name} in 1-byte chunks`).toEqual(whole);
      for (let seed = 1; seed <= 60; seed++) {
        const chunks = randomSplit(message, rng(seed), 1 + (seed % 17));
        expect(parse(chunks), `${name}, seed ${seed}`).toEqual(whole);
      }
    }
  });

  it("splits at every single position give the same blocks", () => {
    const message = MESSAGES.write! + MESSAGES.crlf! + MESSAGES.diff!;
    const whole = parse([message]);
    for (let at = 0; at <= message.length; at++) expect(parse([message.slice(0, at), message.slice(at)])).toEqual(whole);
  });

  it("random tag soup: every split gives the same blocks as one chunk", () => {
    const vocabulary = [
      "<read_file>",
      "</read_file>",
      "<write_to_file>",
      "</write_to_file>",
      "<path>",
      "</path>",
      "<content>",
      "</content>",
      "<line_count>",
      "</line_count>",
      "<start_line>",
      "<",
      ">",
      "</",
      "<rea",
      "d_file>",
      "\n",
      "\r\n",
      "\r",
      " ",
      "  ",
      "text",
      "x<y",
      "a</pa",
      "th>",
      "</conte",
      "nt>",
      "<attempt_completion>",
      "<result>",
      "</result>",
      "</attempt_completion>",
    ];
    const random = rng(2026);
    let withTools = 0;
    let withParams = 0;
    for (let n = 0; n < 400; n++) {
      const message = soup(vocabulary, random, 3 + Math.floor(random() * 60));
      const whole = parse([message]);
      if (whole.some((b) => b.type === "tool_use")) withTools++;
      if (whole.some((b) => b.type === "tool_use" && Object.keys(b.params).length > 0)) withParams++;
      expect(parse([...message]), message).toEqual(whole);
      expect(parse(randomSplit(message, random, 7)), message).toEqual(whole);
      expect(parse(randomSplit(message, random, 23)), message).toEqual(whole);
    }
    // The soup must exercise tools and values, not only prose.
    expect(withTools).toBeGreaterThan(200);
    expect(withParams).toBeGreaterThan(100);
  });

  it("stops a value at the parameter limit with an error for the model", () => {
    const [tool] = parse([`<write_to_file><path>a</path><content>${"x".repeat(50)}</content></write_to_file>`], { maxParamChars: 20 });
    expect(tool).toMatchObject({ type: "tool_use", partial: false, params: { content: "x".repeat(20) } });
    expect((tool as { error?: string }).error).toMatch(/<content> is longer than 20 characters/);
  });

  it("stops at the message limit without crashing, and says so", () => {
    const blocks = parse(["a".repeat(30), "b".repeat(30), "<read_file>"], { maxMessageChars: 40 });
    expect(blocks).toEqual([
      { type: "text", content: "a".repeat(30) + "b".repeat(10), partial: false },
      { type: "text", content: "[The reply passed 40 characters, the limit for one message; the rest was ignored.]", partial: false },
    ]);
    const cut = parse(["<write_to_file><content>", "y".repeat(100)], { maxMessageChars: 50 });
    expect(cut[0]).toMatchObject({ partial: true, error: expect.stringMatching(/was not run/) });
  });
});
