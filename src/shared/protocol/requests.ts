import { z } from "zod";

/**
 * Requests from a page to the host that expect an answer: the page sends `{ type: "request", id,
 * method, params }` and the host answers `{ type: "response", id, ok, result | error }` with the
 * same id. Each page has a request map (method -> params schema and result type); the host checks
 * params against the schema before any handler sees them, since the page renders untrusted text.
 * Fire-and-forget messages and the host's pushes (states, snapshots) stay plain messages.
 */

/** One method: its params schema (checked on the host) and, as a type only, what it answers. */
export interface RequestMethod<P extends z.ZodType = z.ZodType, R = unknown> {
  params: P;
  /** Never set: carries the result type from the map to `request` and `onRequest`. */
  readonly result?: R;
}

/** `method<Result>()(paramsSchema)`: the result type is written out, the params type inferred. */
export function method<R>() {
  return <P extends z.ZodType>(params: P): RequestMethod<P, R> => ({ params });
}

export type RequestMap = Record<string, RequestMethod>;
/** What the page passes (before zod's defaults and trims). */
export type ParamsOf<M extends RequestMap, K extends keyof M> = z.input<M[K]["params"]>;
/** What a handler gets: the params as checked. */
export type CheckedParamsOf<M extends RequestMap, K extends keyof M> = z.output<M[K]["params"]>;
export type ResultOf<M extends RequestMap, K extends keyof M> = M[K] extends RequestMethod<z.ZodType, infer R> ? R : never;

export const MAX_REQUEST_ERROR = 10_000;
const requestId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const RequestEnvelopeSchema = z.object({ type: z.literal("request"), id: requestId, method: z.string().min(1).max(100), params: z.unknown() }).strict();
export type RequestEnvelope = z.infer<typeof RequestEnvelopeSchema>;

/** Why a request failed; `field` names the form field a refusal is about. */
export const RequestFailureSchema = z.object({ message: z.string().max(MAX_REQUEST_ERROR), field: z.string().max(200).optional() }).strict();
export type RequestFailure = z.infer<typeof RequestFailureSchema>;

export const ResponseEnvelopeSchema = z.discriminatedUnion("ok", [
  z.object({ type: z.literal("response"), id: requestId, ok: z.literal(true), result: z.unknown() }).strict(),
  z.object({ type: z.literal("response"), id: requestId, ok: z.literal(false), error: RequestFailureSchema }).strict(),
]);
export type ResponseEnvelope = z.infer<typeof ResponseEnvelopeSchema>;

/**
 * A refusal a handler means the user to see (a bad field, a missing server): the host answers
 * `ok: false` with its message and field, and the page's `request` rejects with one of these.
 */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

/** What a settings or MCP action answers: a line for the status bar. */
export interface Done {
  message: string;
}
