import type { z } from "zod";

export type ParsedMessage<T> = { ok: true; message: T } | { ok: false; reason: string };

/**
 * Checks a message from a webview against its schema. The reason names the message type and the
 * first field that is off, short enough for a log line (the raw message may be large or hostile).
 */
export function parseMessage<S extends z.ZodType>(schema: S, raw: unknown, what: string): ParsedMessage<z.infer<S>> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const type = typeof raw === "object" && raw !== null && "type" in raw ? String((raw as { type: unknown }).type) : typeof raw;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return { ok: false, reason: `invalid ${what} message (${type.slice(0, 60)}): ${issue?.message ?? "no detail"}${where}` };
}
