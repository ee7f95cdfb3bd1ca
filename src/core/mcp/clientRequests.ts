import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, McpError, type ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { elicitationMessage, formFieldsFrom } from "./elicitation";
import { McpRequestRefused, type McpClientRequests } from "./requests";
import { samplingRequestFrom } from "./sampling";

/**
 * The requests a server sends the client (sampling/createMessage, elicitation/create), answered
 * by the host's `requests`. Every answer is bounded by the server's timeout, so a request nobody
 * answers ends with an error the server can report instead of hanging its tool call.
 */

/** JSON-RPC code of a refusal, as the MCP spec's examples answer a rejected sampling request. */
const REFUSED = -1;

export function clientCapabilities(requests: McpClientRequests | undefined): ClientCapabilities {
  // Only form-mode elicitation: URL mode would send the user to a server's web page.
  return { roots: { listChanged: true }, ...(requests ? { sampling: {}, elicitation: { form: {} } } : {}) };
}

export interface RequestContext {
  server: string;
  requests: McpClientRequests;
  /** The server's timeout, read when a request comes. */
  timeoutSeconds(): number;
  /** A line in the server's log (what was refused and why). */
  note(line: string): void;
}

export function installRequestHandlers(client: Client, ctx: RequestContext): void {
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
    bounded(ctx, "sampling request", extra.signal, async (signal) => {
      const answer = await ctx.requests.sample(samplingRequestFrom(ctx.server, request.params), signal);
      return { role: "assistant" as const, content: { type: "text" as const, text: answer.text }, model: answer.model, stopReason: answer.stopReason };
    }),
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    bounded(ctx, "elicitation", extra.signal, async (signal) => {
      const params = request.params;
      // The SDK refuses URL mode already (it is not declared); this keeps the type narrow.
      if (params.mode === "url") throw new McpRequestRefused("Kiln answers form elicitations only.");
      return ctx.requests.elicit({ server: ctx.server, message: elicitationMessage(params.message), fields: formFieldsFrom(params.requestedSchema) }, signal);
    }),
  );
}

/**
 * Runs `answer` with a signal that aborts when the server cancels or its timeout passes, and ends
 * then even if `answer` does not; errors become JSON-RPC errors whose message says why.
 */
async function bounded<T>(ctx: RequestContext, what: string, serverSignal: AbortSignal, answer: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const seconds = ctx.timeoutSeconds();
  const controller = new AbortController();
  const stop = (reason: string) => controller.abort(new McpRequestRefused(reason));
  const timer = setTimeout(() => stop(`Nobody answered the ${what} within ${seconds} s (the server's timeout).`), seconds * 1000);
  timer.unref?.();
  const onCancel = () => stop(`The server withdrew the ${what}.`);
  if (serverSignal.aborted) onCancel();
  else serverSignal.addEventListener("abort", onCancel, { once: true });
  const ended = new Promise<never>((_, reject) => {
    const rejectWithReason = () => reject(controller.signal.reason);
    if (controller.signal.aborted) rejectWithReason();
    else controller.signal.addEventListener("abort", rejectWithReason, { once: true });
  });
  try {
    return await Promise.race([answer(controller.signal), ended]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.note(`[kiln] ${what} not answered: ${message}`);
    if (err instanceof McpError) throw err;
    throw new McpError(err instanceof McpRequestRefused ? REFUSED : ErrorCode.InternalError, err instanceof McpRequestRefused ? message : `Kiln could not answer the ${what}: ${message}`);
  } finally {
    clearTimeout(timer);
    serverSignal.removeEventListener("abort", onCancel);
  }
}
