/**
 * JSON from a model or an MCP server is read with a depth limit. JSON.parse itself copes with deep
 * nesting, but nearly everything that handles the value afterwards recurses (JSON.stringify,
 * structuredClone, redaction, schema checks): arguments nested a million deep overflowed the stack
 * after half a minute. Real tool arguments are a few levels deep.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * Follows the nesting of JSON text as it streams in, in one pass over each piece: strings are
 * skipped (a bracket inside one is text), nothing is parsed or kept.
 */
export class JsonDepthGauge {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The deepest nesting seen so far. */
  deepest = 0;

  push(text: string): void {
    let { depth, inString, escaped, deepest } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) {
        inString = true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++depth > deepest) deepest = depth;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.deepest = deepest;
  }
}

/** Why `text` may not be parsed (nested past the limit), or undefined when it may. */
export function jsonDepthProblem(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const gauge = new JsonDepthGauge();
  gauge.push(text);
  return gauge.deepest > maxDepth ? depthMessage(maxDepth) : undefined;
}

export function depthMessage(maxDepth = MAX_JSON_DEPTH): string {
  return `nested more than ${maxDepth} levels deep, the limit for JSON arguments`;
}

/** JSON.parse behind the depth limit: the value, or why there is none. */
export function parseJsonWithinLimits(text: string, maxDepth = MAX_JSON_DEPTH): { ok: true; value: unknown } | { ok: false; error: string } {
  const problem = jsonDepthProblem(text, maxDepth);
  if (problem) return { ok: false, error: problem };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: `not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
}
