import type { ApprovalCategory, ToolGroup } from "../tools/groups";

export interface ApprovalRequest extends ApprovalDetails {
  /** The chat card of the call, where the host can show Approve / Reject. */
  callId?: string;
  /** Set for calls auto-approved on their own terms (deleting files), apart from their group. */
  category?: ApprovalCategory;
  tool: string;
  group: ToolGroup;
  /** One line for the card: what the call will do. */
  summary: string;
  params: Record<string, string>;
  /** Absolute paths the call touches. */
  paths: string[];
  outsideWorkspace: boolean;
  /** Protected paths among them (Kiln's and the editor's configuration): never auto-approved. */
  protectedPaths?: string[];
}

/** What a tool may add when it asks itself (edit tools ask once their change is worked out). */
export interface ApprovalDetails {
  /** Unified diff of the proposed change, for the user to review. */
  diff?: string;
  /** Ask even when the tool's group is auto-approved (a destructive command, say). */
  alwaysAsk?: boolean;
  /** Why it asks despite auto-approval, shown to the user. */
  reason?: string;
  /** The change is open in the editor's diff view, where the user reviews it: the card only sums it up. */
  inEditor?: boolean;
  /**
   * A decision of its own for this part of the call (one file of a rename, by its path): a call is
   * otherwise decided once however often it asks, and each part is asked about apart.
   */
  part?: string;
}

export type ApprovalDecision = { approved: true } | { approved: false; feedback?: string };

/** The host asks the user (inline card in VS Code, a prompt or a flag in the CLI). */
export interface Approvals {
  request(request: ApprovalRequest): Promise<ApprovalDecision>;
}
