import { describe, expect, it } from "vitest";
import { AssistantMessageParser, type AssistantContentBlock, type ParserOptions } from "../../../src/core/toolcall/xml/AssistantMessageParser";
import { randomSplit, rng, soup } from "./split";

const TOOLS = {
  read_file: ["path", "start_line"],
  write_to_file: ["path", "content"],
  attempt_completion: ["result"],
} as const;

function parse(chunks: readonly string[], options: ParserOptions = {}): AssistantContentBlock[] {
  const parser = new AssistantMessageParser(TOOLS, { reasoningTags: true, ...options });
  for (const chunk of chunks) parser.processChunk(chunk);
  parser.finalizeContentBlocks();
  return structuredClone(parser.getContentBlocks());
}

const MESSAGES: Record<string, string> = {
  plan: "Let me see.\n<thinking>\nThe bug is in a.ts.\nI should read it first.\n</thinking>\n\nReading it.\n<read_file><path>a.ts</path></read_file>",
  think: "<think>\nshort\n</think>The answer is 4.",
  toolsInside: "<thinking>I could call <read_file><path>x</path></read_file> or <write_to_file>.</thinking>Done.",
  inValue: "<write_to_file><path>t.md</path><content>\n<think>\nliteral\n</think>\n<thinking>also</thinking>\n</content></write_to_file>",
  crossed: "<think>a </thinking> b</think><thinking>c </think> d</thinking>",
  crlf: "<thinking>\r\n  indented\r\n\r\n</thinking>\r\nok",
  several: "<thinking>one</thinking><thinking></thinking> between <think>two</think>\n<attempt_completion><result>r</result></attempt_completion>",
  nearMisses: "<thinkin> <thinkingx> <think >x<<thinking>y</thinking> </thinkin",
  unclosed: "Before\n<thinking>\nstill going\n</thin",
};

describe("XML parser: reasoning tags", () => {
  it("reads <thinking> in prose as a reasoning block between text blocks, one newline trimmed each side", () => {
    expect(parse([MESSAGES.plan!])).toEqual([
      { type: "text", content: "Let me see.\n", partial: false },
      { type: "reasoning", content: "The bug is in a.ts.\nI should read it first.", partial: false },
      { type: "text", content: "\n\nReading it.\n", partial: false },
      { type: "tool_use", name: "read_file", params: { path: "a.ts" }, partial: false },
    ]);
    expect(parse([MESSAGES.think!])).toEqual([
      { type: "reasoning", content: "short", partial: false },
      { type: "text", content: "The answer is 4.", partial: false },
    ]);
    expect(parse([MESSAGES.crlf!])[0]).toEqual({ type: "reasoning", content: "  indented\r\n", partial: false });
  });

  it("is off by default: the one-argument parser keeps the tags as text", () => {
    const parser = new AssistantMessageParser(TOOLS);
    parser.processChunk(MESSAGES.think!);
    parser.finalizeContentBlocks();
    expect(parser.getContentBlocks()).toEqual([{ type: "text", content: MESSAGES.think!, partial: false }]);
  });

  it("tool tags inside reasoning open no tool", () => {
    expect(parse([MESSAGES.toolsInside!])).toEqual([
      { type: "reasoning", content: "I could call <read_file><path>x</path></read_file> or <write_to_file>.", partial: false },
      { type: "text", content: "Done.", partial: false },
    ]);
  });

  it("reasoning tags inside a parameter value are content", () => {
    expect(parse([MESSAGES.inValue!])).toEqual([
      {
        type: "tool_use",
        name: "write_to_file",
        params: { path: "t.md", content: "<think>\nliteral\n</think>\n<thinking>also</thinking>" },
        partial: false,
      },
    ]);
  });

  it("each opening tag is closed only by its own closing tag", () => {
    expect(parse([MESSAGES.crossed!])).toEqual([
      { type: "reasoning", content: "a </thinking> b", partial: false },
      { type: "reasoning", content: "c </think> d", partial: false },
    ]);
  });

  it("several reasoning blocks, an empty one, and whitespace-only text between blocks dropped", () => {
    expect(parse([MESSAGES.several!])).toEqual([
      { type: "reasoning", content: "one", partial: false },
      { type: "reasoning", content: "", partial: false },
      { type: "text", content: " between ", partial: false },
      { type: "reasoning", content: "two", partial: false },
      { type: "tool_use", name: "attempt_completion", params: { result: "r" }, partial: false },
    ]);
  });

  it("near misses stay text", () => {
    expect(parse([MESSAGES.nearMisses!])).toEqual([
      { type: "text", content: "<thinkin> <thinkingx> <think >x<", partial: false },
      { type: "reasoning", content: "y", partial: false },
      { type: "text", content: " </thinkin", partial: false },
    ]);
    expect(parse(["a <thin"])).toEqual([{ type: "text", content: "a <thin", partial: false }]);
  });

  it("an unclosed reasoning block stays partial at the end, with all its content", () => {
    expect(parse([MESSAGES.unclosed!])).toEqual([
      { type: "text", content: "Before\n", partial: false },
      { type: "reasoning", content: "still going\n</thin", partial: true },
    ]);
  });

  it("never shows half an opening or closing tag and takes it back", () => {
    const parser = new AssistantMessageParser(TOOLS, { reasoningTags: true });
    parser.processChunk("Hmm <thi");
    expect(parser.getContentBlocks()).toEqual([{ type: "text", content: "Hmm ", partial: true }]);
    parser.processChunk("nking>\nfirst line\n");
    expect(parser.getContentBlocks()).toEqual([
      { type: "text", content: "Hmm ", partial: false },
      { type: "reasoning", content: "first line", partial: true },
    ]);
    parser.processChunk("second <rea");
    expect(parser.getContentBlocks()[1]).toEqual({ type: "reasoning", content: "first line\nsecond <rea", partial: true });
    parser.processChunk("d_file></thin");
    expect(parser.getContentBlocks()[1]).toEqual({ type: "reasoning", content: "first line\nsecond <read_file>", partial: true });
    parser.processChunk("king>after");
    expect(parser.getContentBlocks()).toEqual([
      { type: "text", content: "Hmm ", partial: false },
      { type: "reasoning", content: "first line\nsecond <read_file>", partial: false },
      { type: "text", content: "after", partial: true },
    ]);
  });

  it("reasoning and text grow only by appending while streaming", () => {
    const message = Object.values(MESSAGES).join("\n");
    for (let seed = 1; seed <= 10; seed++) {
      const parser = new AssistantMessageParser(TOOLS, { reasoningTags: true });
      const seen = new Map<number, string>();
      for (const chunk of randomSplit(message, rng(seed), 1 + (seed % 9))) {
        parser.processChunk(chunk);
        parser.getContentBlocks().forEach((block, index) => {
          if (block.type === "tool_use") return;
          const before = seen.get(index);
          if (before !== undefined) expect(block.content.startsWith(before), `seed ${seed}`).toBe(true);
          seen.set(index, block.content);
        });
      }
    }
  });

  it("any split gives the same blocks as one chunk (random splits, 1-byte chunks, every position)", () => {
    for (const [name, message] of Object.entries({ ...MESSAGES, all: Object.values(MESSAGES).join("\n") })) {
      const whole = parse([message]);
      expect(parse([...message]), `${name} in 1-byte chunks`).toEqual(whole);
      for (let seed = 1; seed <= 60; seed++) {
        expect(parse(randomSplit(message, rng(seed), 1 + (seed % 17))), `${name}, seed ${seed}`).toEqual(whole);
      }
      for (let at = 0; at <= message.length; at++) expect(parse([message.slice(0, at), message.slice(at)]), `${name} at ${at}`).toEqual(whole);
    }
  });

  it("random tag soup with reasoning tags: every split gives the same blocks as one chunk", () => {
    const vocabulary = [
      "<thinking>",
      "</thinking>",
      "<think>",
      "</think>",
      "<thin",
      "king>",
      "</thi",
      "nk>",
      "<read_file>",
      "</read_file>",
      "<path>",
      "</path>",
      "<write_to_file>",
      "</write_to_file>",
      "<content>",
      "</content>",
      "<",
      ">",
      "</",
      "\n",
      "\r\n",
      "\r",
      " ",
      "text",
      "a<b",
      "<attempt_completion>",
      "<result>",
      "</result>",
      "</attempt_completion>",
    ];
    const random = rng(4242);
    const seen = { reasoning: 0, tool: 0, unclosed: 0 };
    for (let n = 0; n < 400; n++) {
      const message = soup(vocabulary, random, 3 + Math.floor(random() * 60));
      const whole = parse([message]);
      if (whole.some((b) => b.type === "reasoning")) seen.reasoning++;
      if (whole.some((b) => b.type === "tool_use")) seen.tool++;
      if (whole.some((b) => b.type === "reasoning" && b.partial)) seen.unclosed++;
      expect(parse([...message]), message).toEqual(whole);
      expect(parse(randomSplit(message, random, 7)), message).toEqual(whole);
      expect(parse(randomSplit(message, random, 23)), message).toEqual(whole);
    }
    // The soup must exercise reasoning beside tools, closed and not.
    expect(seen.reasoning).toBeGreaterThan(150);
    expect(seen.tool).toBeGreaterThan(200);
    expect(seen.unclosed).toBeGreaterThan(60);
  });

  it("stops at the message limit inside reasoning: the reasoning so far is kept, partial", () => {
    const blocks = parse(["<thinking>", "x".repeat(30)], { maxMessageChars: 20 });
    expect(blocks).toEqual([
      { type: "reasoning", content: "x".repeat(10), partial: true },
      { type: "text", content: "[The reply passed 20 characters, the limit for one message; the rest was ignored.]", partial: false },
    ]);
  });

  it("a tool named like a reasoning tag is still a tool", () => {
    const parser = new AssistantMessageParser({ think: ["about"] }, { reasoningTags: true });
    parser.processChunk("<think><about>x</about></think><thinking>y</thinking>");
    parser.finalizeContentBlocks();
    expect(parser.getContentBlocks()).toEqual([
      { type: "tool_use", name: "think", params: { about: "x" }, partial: false },
      { type: "reasoning", content: "y", partial: false },
    ]);
  });
});
