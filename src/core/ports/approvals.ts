import type { ToolGroup } from "../tools/defineTool";

export interface ApprovalRequest {
  tool: string;
  group: ToolGroup;
  /** One line for the card: what the call will do. */
  summary: string;
  params: Record<string, string>;
  /** Absolute paths the call touches. */
  paths: string[];
  outsideWorkspace: boolean;
}

export type ApprovalDecision = { approved: true } | { approved: false; feedback?: string };

/** The host asks the user (inline card in VS Code, a prompt or a flag in the CLI). */
export interface Approvals {
  request(request: ApprovalRequest): Promise<ApprovalDecision>;
}
