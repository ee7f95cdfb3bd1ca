import * as vscode from "vscode";
import type { ApprovalDecision, ApprovalRequest, Approvals } from "../../core/ports/approvals";

/**
 * Asks in a notification until the chat has its inline Approve / Reject cards. Closing the
 * notification counts as a rejection: nothing runs without a yes.
 */
export class NotificationApprovals implements Approvals {
  async request(request: ApprovalRequest): Promise<ApprovalDecision> {
    const where = request.outsideWorkspace ? " (outside the workspace)" : "";
    const choice = await vscode.window.showWarningMessage(`Kiln wants to ${request.summary.charAt(0).toLowerCase()}${request.summary.slice(1)}${where}.`, "Approve", "Reject");
    return choice === "Approve" ? { approved: true } : { approved: false };
  }
}
