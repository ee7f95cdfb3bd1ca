/**
 * Issue 15's sweeps: what grows with the reply or the file — token counting of text without
 * whitespace, the edit diff of a whole-file rewrite, the XML parser over a growing reply and over
 * thousands of tool calls in one — with time, peak memory and the fitted growth exponent
 * (target <= 1.1). Prints numbers; asserts nothing.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { countTokens, countTokensLarge, loadTokenizer } from "../../src/core/context/tokens";
import { unifiedDiff } from "../../src/core/diff/unifiedDiff";
import { AssistantMessageParser } from "../../src/core/toolcall/xml/AssistantMessageParser";
import { mixedReply } from "./parserBench";
import { runSweepPointIfChild, runSweeps, type Sweep } from "./sweep";

const KB = 1024;
const MB = 1024 * KB;
const TOOLS = { read_file: ["path", "start_line", "end_line"], write_to_file: ["path", "content", "line_count"], apply_diff: ["path", "diff"] };
/** The parser's own caps would stop it early; the sweep measures its work per character. */
const NO_LIMITS = { maxMessageChars: 1024 * MB, maxParamChars: 1024 * MB };
/** About what a provider's stream delivers per event. */
const CHUNK = 64;

/**
 * Letters without whitespace — to the tokenizer one pre-token, the slowest text it counts per
 * character. A seed per use: the tokenizer caches pieces it has seen.
 */
function letters(length: number, seed: number): string {
  const out: string[] = [];
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    out.push(String.fromCharCode(97 + (state % 26)));
  }
  return out.join("");
}

/** A code file of about `bytes`, and the same with every line changed. */
function rewrite(bytes: number): { before: string; after: string } {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const line = `    const value${i} = compute(input, ${i}); // step ${i}\n`;
    lines.push(line);
    length += line.length;
  }
  const before = lines.join("");
  return { before, after: before.replaceAll("compute(", "calculate(") };
}

function toolCallsReply(calls: number): string {
  const out: string[] = ["I'll read them all.\n"];
  for (let i = 0; i < calls; i++) out.push(`<read_file>\n<path>src/module${i}/index.ts</path>\n</read_file>\n`);
  return out.join("");
}

function parse(reply: string): number {
  const parser = new AssistantMessageParser(TOOLS, NO_LIMITS);
  for (let i = 0; i < reply.length; i += CHUNK) parser.processChunk(reply.slice(i, i + CHUNK));
  parser.finalizeContentBlocks();
  return parser.getContentBlocks().length;
}

const kb = (size: number) => (size >= MB ? `${+(size / MB).toFixed(2)} MB` : `${+(size / KB).toFixed(1)} KB`);

/** What both token sweeps count: text without whitespace, 128 KB to 1 MB. */
const wholeLetters = {
  sizes: [128 * KB, 256 * KB, 512 * KB, MB],
  label: kb,
  warmUp: async (round: number) => {
    await loadTokenizer();
    countTokens(letters(16 * KB, -1 - round));
  },
  prepare: (size: number, attempt: number) => letters(size, size + attempt),
};

const SWEEPS: Sweep<unknown>[] = [
  {
    ...wholeLetters,
    title: "token counting (countTokens), text without whitespace",
    run: (text) => ({ tokens: countTokens(text).toLocaleString("en-US") }),
  } satisfies Sweep<string>,
  {
    ...wholeLetters,
    title: "token counting in the background (countTokensLarge), text without whitespace",
    run: async (text) => {
      // The longest the event loop waited: what Ctrl+C or a stream's next chunk would wait.
      const delays = monitorEventLoopDelay({ resolution: 1 });
      delays.enable();
      await countTokensLarge(text);
      delays.disable();
      return { "longest event-loop stall": `${(delays.max / 1e6).toFixed(1)} ms` };
    },
  } satisfies Sweep<string>,
  {
    title: "edit diff (unifiedDiff), whole-file rewrite: every line changed",
    sizes: [256 * KB, 512 * KB, MB, 4 * MB],
    label: kb,
    warmUp: () => {
      const { before, after } = rewrite(16 * KB);
      unifiedDiff("f.ts", "f.ts", before, after);
    },
    prepare: (size) => rewrite(size),
    run: ({ before, after }) => ({ "patch size": kb(unifiedDiff("f.ts", "f.ts", before, after, "before", "proposed").length) }),
  } satisfies Sweep<ReturnType<typeof rewrite>>,
  {
    title: `XML parser, a growing reply (prose, a write_to_file, an apply_diff) in ${CHUNK}-character chunks`,
    sizes: [MB, 2 * MB, 4 * MB, 8 * MB],
    label: kb,
    warmUp: () => void parse(mixedReply(256 * KB)),
    // mixedReply's size is its write_to_file content; the prose adds a third.
    prepare: (size) => mixedReply(Math.round((size * 3) / 4)),
    run: (reply) => ({ blocks: String(parse(reply)) }),
  } satisfies Sweep<string>,
  {
    title: `XML parser, many tool calls in one reply, in ${CHUNK}-character chunks`,
    sizes: [1_000, 4_000, 16_000, 32_000],
    label: (calls) => `${calls / 1000}k calls`,
    warmUp: () => void parse(toolCallsReply(2_000)),
    prepare: (calls) => toolCallsReply(calls),
    run: (reply) => ({ blocks: String(parse(reply)) }),
  } satisfies Sweep<string>,
];

/** In a child process started for one point, runs it and exits; otherwise prints every sweep. */
export async function runScalingBench(): Promise<void> {
  await runSweepPointIfChild(SWEEPS);
  runSweeps(SWEEPS);
}
