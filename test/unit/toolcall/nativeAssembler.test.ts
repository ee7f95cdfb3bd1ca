import { describe, expect, it } from "vitest";
import { NativeToolCallAssembler } from "../../../src/core/toolcall/native/NativeToolCallAssembler";

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe("native tool calls", () => {
  it("fills params while the JSON streams, then gives the exact values", () => {
    const args = JSON.stringify({ path: "src/app.ts", content: "line one\n  line two\n".repeat(20), line_count: 40 });
    const assembler = new NativeToolCallAssembler();
    const seenPaths = new Set<string>();
    pieces(args, 7).forEach((argsDelta, n) => {
      const block = assembler.add({ index: 0, id: n === 0 ? "call_1" : undefined, name: n === 0 ? "write_to_file" : undefined, argsDelta });
      if (block.params.path) seenPaths.add(block.params.path);
    });
    const partial = assembler.add({ index: 0, argsDelta: "" });
    expect(partial).toMatchObject({ name: "write_to_file", id: "call_1", partial: true });
    expect(partial.params.path).toBe("src/app.ts");
    expect([...seenPaths].every((p) => "src/app.ts".startsWith(p))).toBe(true);
    const [block] = assembler.finalize();
    expect(block).toEqual({
      type: "tool_use",
      name: "write_to_file",
      id: "call_1",
      partial: false,
      params: { path: "src/app.ts", content: "line one\n  line two\n".repeat(20), line_count: "40" },
      input: { path: "src/app.ts", content: "line one\n  line two\n".repeat(20), line_count: 40 },
    });
  });

  it("keeps parallel calls apart by index and reports new blocks in order", () => {
    const created: string[] = [];
    const assembler = new NativeToolCallAssembler((b) => created.push(b.id ?? "?"));
    assembler.add({ index: 0, id: "a", name: "read_file", argsDelta: '{"path":' });
    assembler.add({ index: 1, id: "b", name: "list_files", argsDelta: '{"path": ".", "recursive": true}' });
    assembler.add({ index: 0, argsDelta: ' "x.ts"}' });
    const blocks = assembler.finalize();
    expect(created).toEqual(["a", "b"]);
    expect(blocks.map((b) => b.params)).toEqual([{ path: "x.ts" }, { path: ".", recursive: "true" }]);
  });

  it("turns nested arguments into JSON text and empty arguments into no params", () => {
    const assembler = new NativeToolCallAssembler();
    assembler.add({ index: 0, id: "a", name: "ask_followup_question", argsDelta: '{"question":"Which?","follow_up":[{"text":"A"},{"text":"B","mode":"code"}]}' });
    assembler.add({ index: 1, id: "b", name: "list_modes", argsDelta: "" });
    const [ask, empty] = assembler.finalize();
    expect(JSON.parse(ask!.params.follow_up!)).toEqual([{ text: "A" }, { text: "B", mode: "code" }]);
    expect(empty).toMatchObject({ params: {}, partial: false });
  });

  it("gives the model a clear error for JSON that never completes or is not an object", () => {
    const assembler = new NativeToolCallAssembler();
    assembler.add({ index: 0, id: "a", name: "read_file", argsDelta: '{"path": "src/a' });
    assembler.add({ index: 1, id: "b", name: "read_file", argsDelta: '["src/a.ts"]' });
    assembler.add({ index: 2, id: "c", argsDelta: "{}" });
    const [cut, array, nameless] = assembler.finalize();
    expect(cut).toMatchObject({ partial: true, error: expect.stringMatching(/read_file are not valid JSON/) });
    expect(array).toMatchObject({ error: expect.stringMatching(/must be a JSON object, not an array/) });
    expect(nameless).toMatchObject({ error: "A tool call arrived without a tool name." });
  });
});

describe("native tool calls past the limits", () => {
  it("refuses a call whose arguments pass the size limit, at once, and keeps nothing more of it", () => {
    const assembler = new NativeToolCallAssembler(undefined, { maxArgChars: 1000, maxDepth: 64 });
    assembler.add({ index: 0, id: "a", name: "write_to_file", argsDelta: '{"path":"a.txt","content":"' });
    let block = assembler.add({ index: 0, argsDelta: "x".repeat(900) });
    expect(block.error).toBeUndefined();
    block = assembler.add({ index: 0, argsDelta: "x".repeat(900) });
    expect(block.error).toMatch(/The arguments of write_to_file passed 1000 characters, the limit for one tool call; the call was cut off there and not run/);
    assembler.add({ index: 0, argsDelta: '"}' });
    const [done] = assembler.finalize();
    expect(done).toMatchObject({ partial: true, error: expect.stringMatching(/passed 1000 characters/) });
    expect(done!.input).toBeUndefined();
  });

  it("refuses arguments nested past the depth limit as they stream, brackets in strings aside", () => {
    const assembler = new NativeToolCallAssembler(undefined, { maxArgChars: 1_000_000, maxDepth: 64 });
    assembler.add({ index: 0, id: "ok", name: "use_mcp_tool", argsDelta: `{"note":"${"[".repeat(500)}","deep":${"[".repeat(63)}` });
    assembler.add({ index: 0, argsDelta: `${"]".repeat(63)}}` });
    assembler.add({ index: 1, id: "deep", name: "read_file", argsDelta: `{"path":${"[".repeat(10_000)}` });
    const [ok, deep] = assembler.finalize();
    expect(ok!.error).toBeUndefined();
    expect(ok!.input).toMatchObject({ note: "[".repeat(500) });
    expect(deep).toMatchObject({ error: "The arguments of read_file are nested more than 64 levels deep, the limit for JSON arguments; the call was not run. Send flatter arguments." });
  });
});
