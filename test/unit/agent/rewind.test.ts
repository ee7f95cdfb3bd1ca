import { describe, expect, it } from "vitest";
import { ChatLog, type TaskEvent } from "../../../src/core/agent/ChatLog";
import { Conversation } from "../../../src/core/agent/Conversation";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";

const block = (name: string, id: string): ToolUseBlock => ({ type: "tool_use", name, params: {}, partial: false, id, input: {} });

describe("going back to a checkpoint", () => {
  it("the conversation keeps the first n messages, and the reply there hears that its calls were undone", () => {
    const conversation = new Conversation();
    conversation.addUserText("make a.txt");
    conversation.addAssistant("Writing it.", [block("write_to_file", "call_1"), block("read_file", "call_2")], () => "x");
    const checkpointAt = conversation.size;
    conversation.addResults(
      [
        { type: "tool_result", toolUseId: "call_1", content: "ok" },
        { type: "tool_result", toolUseId: "call_2", content: "ok" },
      ],
      [],
      [],
      true,
    );
    conversation.addAssistant("Done?", [block("attempt_completion", "call_3")], () => "y");
    conversation.waitForAnswer({ name: "attempt_completion", id: "call_3", results: [], texts: [], images: [] });

    conversation.rewind(checkpointAt);
    conversation.addUserText("use b.txt instead");
    const messages = conversation.all();
    expect(messages).toHaveLength(3);
    expect(messages[1]!.role).toBe("assistant");
    const last = messages[2]!;
    expect(last.role).toBe("user");
    const blocks = last.content as { type: string; toolUseId?: string; content?: string; text?: string }[];
    expect(blocks.filter((b) => b.type === "tool_result").map((b) => b.toolUseId)).toEqual(["call_1", "call_2"]);
    expect(blocks[0]!.content).toMatch(/restored the files to the checkpoint/);
    // The pending completion went with the rest: the new words are plain text, not feedback on it.
    expect(blocks.at(-1)).toEqual({ type: "text", text: "use b.txt instead" });
  });

  it("with XML calls the note is text, and a condense from past the point is dropped", () => {
    const conversation = new Conversation();
    conversation.addUserText("task");
    conversation.addAssistant("<write_to_file>…</write_to_file>", [], () => "x");
    const at = conversation.size;
    conversation.addResults([], ["[write_to_file] Result:\nok"], [], false);
    conversation.addAssistant("more", [], () => "y");
    conversation.addResults([], ["[read_file] Result:\nok"], [], false);
    conversation.addAssistant("<condense/>", [], () => "z");
    conversation.condense(4, "summary of the later work");
    conversation.rewind(at);
    expect(conversation.apiView().map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(conversation.apiView())).not.toContain("summary of the later work");
    expect(conversation.apiView()[2]!.content).toMatch(/^\[The user restored the files/);
  });

  it("the chat removes the items after the checkpoint, each with an event, and says false for an unknown id", () => {
    const log = new ChatLog();
    const events: TaskEvent[] = [];
    log.onDidChange((e) => events.push(e));
    for (const role of ["user", "assistant"] as const) log.append({ id: log.newId(), role, text: role, ...(role === "assistant" && { partial: false }) } as never);
    log.append({ id: log.newId(), role: "checkpoint", message: "Before write_to_file a.txt", commit: "abc1234", apiIndex: 2 });
    log.append({ id: log.newId(), role: "completion", result: "Done." });
    log.append({ id: log.newId(), role: "user", text: "thanks" });
    expect(log.removeAfter("nope")).toBe(false);
    expect(log.removeAfter("m3")).toBe(true);
    expect(log.snapshot().map((i) => i.id)).toEqual(["m1", "m2", "m3"]);
    expect(events.filter((e) => e.type === "itemRemoved")).toEqual([
      { type: "itemRemoved", id: "m5" },
      { type: "itemRemoved", id: "m4" },
    ]);
  });
});
