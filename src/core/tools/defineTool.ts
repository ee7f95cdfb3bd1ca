import type { FileSystem } from "../ports/fileSystem";
import type { ArgsOf, ParamSpecs } from "./params";

export type ToolGroup = "read" | "edit" | "command" | "browser" | "mcp" | "always";

export interface ToolContext {
  /** Workspace root; relative paths resolve against it. */
  cwd: string;
  fs: FileSystem;
  signal: AbortSignal;
}

export interface Suggestion {
  text: string;
  mode?: string;
}

/** What a tool hands back: a result for the model, or a stop of the loop (a question, the end). */
export type ToolOutcome =
  | { kind: "result"; text: string }
  | { kind: "question"; question: string; suggestions: Suggestion[] }
  | { kind: "completion"; result: string; command?: string };

export interface ApprovalInfo {
  summary: string;
  /** Paths as the model wrote them; the pipeline resolves and checks them. */
  paths: string[];
}

export interface ToolDefinition<S extends ParamSpecs = ParamSpecs> {
  name: string;
  group: ToolGroup;
  description: string;
  params: S;
  /** What the user is asked to approve; undefined for tools that never need approval. */
  approval?(args: ArgsOf<S>): ApprovalInfo;
  execute(args: ArgsOf<S>, context: ToolContext): Promise<ToolOutcome>;
}

export type AnyTool = ToolDefinition<ParamSpecs>;

/** Keeps each tool's args typed by its own params while the registry holds them all. */
export function defineTool<S extends ParamSpecs>(tool: ToolDefinition<S>): AnyTool {
  return tool as unknown as AnyTool;
}
