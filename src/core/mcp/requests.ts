import type { FormContent, FormField } from "../../shared/protocol/mcpRequests";
import type { LlmImage } from "../llm/types";
import { cap } from "./format";
import type { McpHubApi, McpProgress } from "./types";

/**
 * What MCP servers may ask of Kiln while they work (sampling, elicitation) and what they report
 * (progress), in plain types: the host answers without seeing an SDK type.
 */

/** One message of a sampling request, as the model will get it. */
export interface SamplingMessage {
  role: "user" | "assistant";
  parts: ({ type: "text"; text: string } | ({ type: "image" } & LlmImage))[];
}

export interface SamplingRequest {
  server: string;
  systemPrompt?: string;
  messages: SamplingMessage[];
  /** The server's cap on the answer, within Kiln's own. */
  maxTokens: number;
  /** The tag of the tool call on that server that was running when the request came (see withCaller). */
  caller?: unknown;
}

export interface SamplingAnswer {
  text: string;
  model: string;
  stopReason: "endTurn" | "maxTokens";
}

export interface ElicitationRequest {
  server: string;
  message: string;
  fields: FormField[];
  caller?: unknown;
}

export type ElicitationAnswer = { action: "accept"; content: FormContent } | { action: "decline" | "cancel" };

/**
 * Given to the hub by a host that can ask the user. Without it the client declares neither
 * capability, so servers do not send these requests at all (the CLI).
 */
export interface McpClientRequests {
  /** Asks the user, then runs the request through the model; throws McpRequestRefused on a no. */
  sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingAnswer>;
  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
}

/** A refusal the server should hear as such (the user said no, nobody can answer, it took too long). */
export class McpRequestRefused extends Error {}

const PROGRESS_MESSAGE_CHARS = 200;

/** "3/5 — indexing", "40%", "12": short enough for a card's line. */
export function progressText(p: McpProgress): string {
  const number = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  const amount = p.total !== undefined && p.total > 0 ? `${number(p.progress)}/${number(p.total)}` : number(p.progress);
  const message = p.message?.replace(/\s+/g, " ").trim();
  return message ? `${amount} — ${cap(message, PROGRESS_MESSAGE_CHARS)}` : amount;
}

/** The hub as one chat's tools see it: their calls carry the chat's tag to the server's requests. */
export function withCaller(hub: McpHubApi, caller: unknown): McpHubApi {
  return {
    servers: () => hub.servers(),
    callTool: (server, tool, args, signal, hooks) => hub.callTool(server, tool, args, signal, { ...hooks, caller }),
    readResource: (server, uri, signal) => hub.readResource(server, uri, signal),
  };
}
