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
  return { ok: false, reason: `invalid ${what} message (${type.slice(0, 60)}): ${firstIssue(result.error)}` };
}

/** The same check for a request's params (requests.ts); the reason names the method instead of a type. */
export function parseParams<S extends z.ZodType>(schema: S, raw: unknown, method: string): ParsedMessage<z.output<S>> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  return { ok: false, reason: `invalid ${method.slice(0, 100)} params: ${firstIssue(result.error)}` };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return `${issue?.message ?? "no detail"}${where}`;
}
