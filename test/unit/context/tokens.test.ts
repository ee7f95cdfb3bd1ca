import { countTokens as libraryCount } from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { countTokens, countTokensLarge, loadTokenizer, messageTokens, messageTokensLarge } from "../../../src/core/context/tokens";
import type { LlmMessage } from "../../../src/core/llm/types";

beforeAll(loadTokenizer);

/** Letters without whitespace, the same for every run of a seed. */
function blob(length: number, seed = 12345): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz";
  let out = "";
  while (out.length < length) {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    out += alphabet[seed % alphabet.length];
  }
  return out;
}

/** Text as a task meets it: code with indentation and comments, prose, blank lines, CRLF, tabs, CJK and emoji. */
function ordinaryText(): string {
  const parts: string[] = [];
  for (let i = 0; i < 400; i++) {
    parts.push(
      `/**\n * Step ${i}: reads the input, then writes it back.\n */\n//\texplained below\n`,
      `export function step${i}(input: string): string {\n    const value = compute(input, ${i}); // see */\n\n\n    return value.trim();\n}\n`,
      `The model's reply, number ${i}, says: "it's done" — and it isn't (yet).  Two spaces; tabs\there.\r\n`,
      `漢字のテキストは空白なしで続きます。第${i}段落。😀👍🏽 emoji between words\n  \n`,
    );
  }
  return parts.join("");
}

describe("token counting in bounded slices", () => {
  it("gives the tokenizer's own count for ordinary text, however it is sliced", () => {
    const text = ordinaryText();
    expect(text.length).toBeGreaterThan(100_000);
    expect(countTokens(text)).toBe(libraryCount(text));
  });

  it("counts 1 MB without whitespace (to the tokenizer one pre-token, quadratic) within 0.2% of its count in 2 KB pieces", { timeout: 60_000 }, () => {
    // Whole, this is one pre-token to the tokenizer, whose merge is quadratic in it: over 115 s.
    const text = blob(1024 * 1024);
    let reference = 0;
    for (let i = 0; i < text.length; i += 2048) reference += libraryCount(text.slice(i, i + 2048));
    const tokens = countTokens(text);
    expect(Math.abs(tokens - reference) / reference).toBeLessThan(0.002);
  });

  it("cuts a run without whitespace between characters, not inside one (an emoji's surrogate pair)", () => {
    // 1 + 600 × 2 UTF-16 units: a cut after 1,024 units would split the 512th emoji.
    const text = `x${"😀".repeat(600)}`;
    expect(countTokens(text)).toBe(libraryCount(text));
  });

  it("counts special tokens' text as text instead of refusing it", () => {
    expect(countTokens("a <|endoftext|> b")).toBeGreaterThan(3);
    expect(messageTokens({ role: "user", content: "<|im_start|>" })).toBeGreaterThan(4);
  });

  it("lets the event loop run while it counts a large text", async () => {
    // Letters alone, the slowest text per character there is (~1 µs each): this takes tens of ms. A
    // seed of its own, or the tokenizer's cache of pieces seen before would make it quick.
    const text = blob(65_000, 99);
    const order: string[] = [];
    setTimeout(() => order.push("timer"), 0);
    const counting = countTokensLarge(text).then((tokens) => {
      order.push("counted");
      return tokens;
    });
    expect(await counting).toBe(countTokens(text));
    expect(order).toEqual(["timer", "counted"]);
  });

  it("counts a message the same either way", async () => {
    const message: LlmMessage = {
      role: "assistant",
      content: [
        { type: "text", text: ordinaryText() },
        { type: "tool_use", id: "t1", name: "write_to_file", input: { path: "a.txt", content: blob(5_000) } },
      ],
    };
    expect(await messageTokensLarge(message)).toBe(messageTokens(message));
  });
});
