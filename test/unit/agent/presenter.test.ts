import { describe, expect, it } from "vitest";
import { BlockPresenter, type PresenterSink } from "../../../src/core/agent/presenter";
import { AssistantMessageParser } from "../../../src/core/toolcall/xml/AssistantMessageParser";
import { randomSplit, rng } from "../toolcall/split";

const TOOLS = { read_file: ["path"], write_to_file: ["path", "content"] };
const MESSAGE =
  "Let me see.\n<thinking>\nThe bug is in a.ts.\nI should read it.\n</thinking>\n\nReading it now, then writing.\n<read_file><path>a.ts</path></read_file>\nAnd <b>more</b> text < here.\n<think>short</think>The end.";

/** What the chat shows of each text or reasoning item: its text at append, then every delta. */
function present(chunks: readonly string[]): { shown: Map<string, string>; blocks: string[] } {
  const shown = new Map<string, string>();
  let n = 0;
  const sink: PresenterSink = {
    append: (item) => {
      if (item.role === "assistant") shown.set(item.id, item.reasoning ?? item.text);
    },
    textDelta: (id, delta) => shown.set(id, shown.get(id)! + delta),
    changed: () => undefined,
    newId: () => `i${++n}`,
  };
  const view = new BlockPresenter(sink);
  const parser = new AssistantMessageParser(TOOLS, { reasoningTags: true, onContent: (block, piece) => view.grew(block, piece) });
  for (const chunk of chunks) view.update(parser.processChunk(chunk));
  parser.finalizeContentBlocks();
  view.update(parser.getContentBlocks(), true);
  return { shown, blocks: parser.getContentBlocks().flatMap((b) => (b.type === "tool_use" ? [] : [b.content])) };
}

describe("presenting a streamed reply", () => {
  it("shows each text and reasoning block exactly as parsed, whatever the chunks, passing pieces on as they come", () => {
    const random = rng(15);
    for (let trial = 0; trial < 200; trial++) {
      const { shown, blocks } = present(randomSplit(MESSAGE, random, 1 + (trial % 12)));
      expect([...shown.values()]).toEqual(blocks);
    }
    const { shown, blocks } = present([...MESSAGE]);
    expect([...shown.values()]).toEqual(blocks);
  });
});
