import type { LlmImage } from "../llm/types";
import type { McpCallResult } from "./types";

/**
 * Turns what an MCP server answered (tools/call, resources/read) into text and images for the
 * model. The SDK has already checked the shapes against the protocol schemas; here we only pick
 * what the model can use and cap sizes, since a server can send arbitrarily much.
 */

/** Beyond this the rest of the text is cut, so one tool call cannot flood the context. */
export const MAX_RESULT_CHARS = 200_000;
/** Base64 characters per image (~7.5 MB decoded); larger images are described instead. */
const MAX_IMAGE_BASE64 = 10_000_000;
const MAX_IMAGES = 10;

const IMAGE_TYPES = new Set<LlmImage["mediaType"]>(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** Caps a string a server gave us (descriptions, names, log lines) to `max` characters. */
export function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`;
}

function asImageType(mimeType: unknown): LlmImage["mediaType"] | undefined {
  const t = typeof mimeType === "string" ? mimeType.toLowerCase().split(";")[0]?.trim() : undefined;
  return t && IMAGE_TYPES.has(t as LlmImage["mediaType"]) ? (t as LlmImage["mediaType"]) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * An image a server sent, ready for the model, or the line that says why it is left out (a type
 * models do not take, too large, or past the count, `already` being the images kept so far).
 */
export function imageOrNote(data: string, mimeType: unknown, what: string, already: number): LlmImage | string {
  const mediaType = asImageType(mimeType);
  if (!mediaType) return `[${what}: ${str(mimeType) ?? "unknown type"}, ${describeSize(data)}, not shown: only png, jpeg, gif and webp images are supported]`;
  if (data.length > MAX_IMAGE_BASE64) return `[${what}: ${mediaType}, ${describeSize(data)}, too large to show]`;
  if (already >= MAX_IMAGES) return `[${what}: ${mediaType}, not shown: more than ${MAX_IMAGES} images]`;
  return { mediaType, data };
}

/** Collects parts; images past the limits become a line of text so the model knows they existed. */
class ResultBuilder {
  private readonly lines: string[] = [];
  readonly images: LlmImage[] = [];

  text(line: string): void {
    this.lines.push(line);
  }

  image(data: string, mimeType: unknown, what: string): void {
    const image = imageOrNote(data, mimeType, what, this.images.length);
    if (typeof image === "string") this.lines.push(image);
    else this.images.push(image);
  }

  build(isError: boolean): McpCallResult {
    return { text: cap(this.lines.join("\n"), MAX_RESULT_CHARS), images: this.images, isError };
  }
}

export function describeSize(base64: string): string {
  return `${Math.floor((base64.length * 3) / 4)} bytes`;
}

/** One embedded or read resource content: { uri, mimeType?, text } or { uri, mimeType?, blob }. */
function addResourceContents(out: ResultBuilder, contents: Record<string, unknown>, withHeader: boolean): void {
  const uri = str(contents.uri) ?? "(no uri)";
  const mimeType = str(contents.mimeType);
  const text = str(contents.text);
  const blob = str(contents.blob);
  if (text !== undefined) {
    out.text(withHeader ? `Resource ${uri}${mimeType ? ` (${mimeType})` : ""}:\n${text}` : text);
  } else if (blob !== undefined) {
    if (asImageType(mimeType)) out.image(blob, mimeType, `image resource ${uri}`);
    else out.text(`[binary resource ${uri}: ${mimeType ?? "unknown type"}, ${describeSize(blob)}, not shown]`);
  } else {
    out.text(`[resource ${uri} with no text or blob]`);
  }
}

/** Formats a tools/call result (already validated by the SDK's CallToolResultSchema). */
export function formatToolResult(result: Record<string, unknown>): McpCallResult {
  const out = new ResultBuilder();
  const isError = result.isError === true;
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : undefined;
  if (!content) {
    // Protocol 2024-10-07 servers answer { toolResult } instead of content.
    out.text(JSON.stringify(result.toolResult ?? result) ?? "");
    return out.build(isError);
  }
  for (const raw of content) {
    if (!raw || typeof raw !== "object") continue;
    const part = raw as Record<string, unknown>;
    switch (part.type) {
      case "text":
        out.text(str(part.text) ?? "");
        break;
      case "image":
        out.image(str(part.data) ?? "", part.mimeType, "image");
        break;
      case "audio":
        out.text(`[audio: ${str(part.mimeType) ?? "unknown type"}, ${describeSize(str(part.data) ?? "")}, not shown]`);
        break;
      case "resource_link": {
        const name = str(part.name) ?? str(part.uri) ?? "";
        const extra = [str(part.mimeType), str(part.description)].filter(Boolean).join(", ");
        out.text(`Resource link: ${name} <${str(part.uri) ?? ""}>${extra ? ` (${extra})` : ""}`);
        break;
      }
      case "resource":
        if (part.resource && typeof part.resource === "object") {
          addResourceContents(out, part.resource as Record<string, unknown>, true);
        }
        break;
      default:
        out.text(`[content of unknown type ${JSON.stringify(String(part.type)).slice(0, 50)}]`);
    }
  }
  // Tools with an output schema may put everything in structuredContent and leave content empty.
  if (content.length === 0 && result.structuredContent !== undefined) {
    out.text(JSON.stringify(result.structuredContent));
  }
  return out.build(isError);
}

/** Formats a resources/read result (already validated by ReadResourceResultSchema). */
export function formatResourceResult(result: { contents: unknown[] }): McpCallResult {
  const out = new ResultBuilder();
  const many = result.contents.length > 1;
  for (const raw of result.contents) {
    if (raw && typeof raw === "object") addResourceContents(out, raw as Record<string, unknown>, many);
  }
  if (result.contents.length === 0) out.text("(the resource is empty)");
  return out.build(false);
}
