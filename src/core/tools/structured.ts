import { XMLParser } from "fast-xml-parser";
import { parseJsonWithinLimits } from "../toolcall/jsonLimits";

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, processEntities: true });
/** For elements whose attributes carry meaning (`<suggest mode="code">`): attributes become fields beside `text`. */
const xmlWithAttributes = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  textNodeName: "text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
});

/**
 * A structured parameter arrives as JSON (native calls, or a model that prefers it) or as nested
 * XML (`<file><path>a</path></file>`), parsed only after the parameter has closed.
 */
export function parseStructured(text: string, options: { attributes?: boolean } = {}): { ok: true; value: unknown } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) return parseJsonWithinLimits(trimmed);
  try {
    // Several sibling elements are normal here (<file>…</file><file>…</file>): give them one root.
    const doc = (options.attributes ? xmlWithAttributes : xml).parse(`<kiln-root>${trimmed}</kiln-root>`, true) as Record<string, unknown>;
    return { ok: true, value: doc["kiln-root"] };
  } catch (err) {
    return { ok: false, error: `not valid XML (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** fast-xml-parser gives one child as an object and several as an array: always an array. */
export function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
