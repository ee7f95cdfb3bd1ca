/**
 * Parser speed, printed beside a baseline measured in the same run: one `indexOf("<")` pass per
 * chunk over the same bytes, the least any streaming scanner must do. Not a test: it prints numbers.
 */
import { performance } from "node:perf_hooks";
import { AssistantMessageParser, type ParserOptions } from "../../src/core/toolcall/xml/AssistantMessageParser";

const TOOLS = {
  read_file: ["path", "start_line", "end_line"],
  write_to_file: ["path", "content", "line_count"],
  apply_diff: ["path", "diff"],
  attempt_completion: ["result"],
};

const NO_LIMITS = { maxMessageChars: 64 * 1024 * 1024, maxParamChars: 64 * 1024 * 1024 };

function fileContent(size: number): string {
  const lines = [
    "export function render(node: Node): string {",
    "  // builds <path> elements and closes them with </content> markers",
    "  const xml = `<content>${node.text}</content>`;",
    "  if (a < b && c > d) return xml;",
    '  return `<path d="M0 0"/>`;',
    "}",
  ];
  let out = "";
  for (let i = 0; out.length < size; i++) out += `${lines[i % lines.length]}\n`;
  return out.slice(0, size);
}

/**
 * A mixed reply: prose (a third of the file's size, in three places), a write_to_file with the given
 * content size, an apply_diff. 150 KB of content makes a reply of about 200 KB.
 */
export function mixedReply(contentSize: number): string {
  const sentence = "I'll update the renderer. It compares a < b and emits <b>markup</b> around it.\n";
  const prose = sentence.repeat(Math.max(1, Math.round(contentSize / 9 / sentence.length)));
  const diff = "<<<<<<< SEARCH\n:start_line:3\n-------\n  const xml = `<content>${node.text}</content>`;\n=======\n  const xml = `<content>${escape(node.text)}</content>`;\n>>>>>>> REPLACE";
  return `${prose}<write_to_file>\n<path>src/render.ts</path>\n<content>\n${fileContent(contentSize)}</content>\n<line_count>100</line_count>\n</write_to_file>\n${prose}<apply_diff>\n<path>src/other.ts</path>\n<diff>\n${diff}\n</diff>\n</apply_diff>\n${prose}`;
}

function chunksOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** `mixedReply` with its first third of prose inside `<thinking>`, read with reasoning tags on. */
function reasoningReply(contentSize: number): string {
  const reply = mixedReply(contentSize);
  const proseEnd = reply.indexOf("<write_to_file>");
  return `<thinking>\n${reply.slice(0, proseEnd)}</thinking>\n${reply.slice(proseEnd)}`;
}

function timeParser(chunks: readonly string[], options: ParserOptions = NO_LIMITS): number {
  const t0 = performance.now();
  const parser = new AssistantMessageParser(TOOLS, options);
  for (const chunk of chunks) parser.processChunk(chunk);
  parser.finalizeContentBlocks();
  return performance.now() - t0;
}

let sink = 0;
function timeBaseline(chunks: readonly string[]): number {
  const t0 = performance.now();
  for (const chunk of chunks) sink += chunk.indexOf("<");
  return performance.now() - t0;
}

/**
 * Runs per figure, of which the best counts, to keep GC pauses, JIT warm-up and other processes out
 * of it: on a two-core machine shared with other work, best of 5 swung the 8-byte ratio by 2x and
 * more from one `npm run bench` to the next.
 */
const RUNS = 15;

function best(fn: () => number, runs: number): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    gc?.();
    min = Math.min(min, fn());
  }
  return min;
}

function fmt(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

export function runParserBench(): void {
  const reply = mixedReply(150 * 1024);
  console.log(`\nXML parser: ${(reply.length / 1024).toFixed(0)} KB mixed reply (150 KB write_to_file with </content> and <path> text, an apply_diff)`);
  console.log("chunk bytes | parser     | baseline   | ratio");
  for (const size of [1, 8, 64, 512]) {
    const chunks = chunksOf(reply, size);
    timeParser(chunks);
    const parser = best(() => timeParser(chunks), RUNS);
    const baseline = best(() => timeBaseline(chunks), RUNS);
    console.log(`${String(size).padStart(11)} | ${fmt(parser).padEnd(10)} | ${fmt(baseline).padEnd(10)} | ${(parser / baseline).toFixed(1)}x`);
  }
  {
    const chunks = chunksOf(reasoningReply(150 * 1024), 8);
    const options = { ...NO_LIMITS, reasoningTags: true };
    timeParser(chunks, options);
    const parser = best(() => timeParser(chunks, options), RUNS);
    const baseline = best(() => timeBaseline(chunks), RUNS);
    console.log(`the same reply, its first prose in <thinking>, reasoningTags on, 8-byte chunks: ${fmt(parser)} | ${fmt(baseline)} | ${(parser / baseline).toFixed(1)}x`);
  }

  console.log("\nXML parser size sweep at 8-byte chunks");
  console.log("reply size | parser     | baseline   | ratio");
  const points: [number, number][] = [];
  for (const kb of [10, 40, 160, 640, 1024, 2048, 4096]) {
    const text = mixedReply(kb * 1024);
    const chunks = chunksOf(text, 8);
    timeParser(chunks);
    const parser = best(() => timeParser(chunks), RUNS);
    const baseline = best(() => timeBaseline(chunks), RUNS);
    points.push([text.length, parser]);
    console.log(`${`${(text.length / 1024).toFixed(0)} KB`.padStart(10)} | ${fmt(parser).padEnd(10)} | ${fmt(baseline).padEnd(10)} | ${(parser / baseline).toFixed(1)}x`);
  }
  // Least-squares slope of log(time) against log(size): 1 is linear, 2 quadratic.
  const xs = points.map(([n]) => Math.log(n));
  const ys = points.map(([, t]) => Math.log(t));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const slope = xs.reduce((acc, x, k) => acc + (x - mx) * (ys[k]! - my), 0) / xs.reduce((acc, x) => acc + (x - mx) ** 2, 0);
  console.log(`fitted growth exponent: ${slope.toFixed(2)} (target <= 1.1)`);
  if (sink === 42) console.log("");
}
