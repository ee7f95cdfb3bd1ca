import type { ApprovalDecision, ApprovalRequest, Approvals } from "../../../core/ports/approvals";
import type { Logger } from "../../../core/ports";

/**
 * Approvals answered in the chat: the tool card shows Approve / Reject (the core puts what is asked
 * on the card), and the webview's answer comes back here by the card's id.
 */
export class ChatApprovals implements Approvals {
  private readonly waiting = new Map<string, (decision: ApprovalDecision) => void>();
  private next = 0;

  constructor(private readonly logger: Logger) {}

  request(request: ApprovalRequest): Promise<ApprovalDecision> {
    const id = request.callId ?? `approval-${++this.next}`;
    return new Promise((resolve) => {
      // A second request for the same card replaces the first, which counts as a no.
      this.waiting.get(id)?.({ approved: false });
      this.waiting.set(id, resolve);
    });
  }

  /** The user's answer; ignored (and logged) when nothing waits under that id, e.g. a stale click. */
  answer(id: string, decision: ApprovalDecision): void {
    const resolve = this.waiting.get(id);
    if (!resolve) {
      this.logger.warn(`approval for ${id} ignored: nothing is waiting for it`);
      return;
    }
    this.waiting.delete(id);
    resolve(decision);
  }

  /** Everything still waiting is refused: the task was cancelled or replaced. */
  rejectAll(): void {
    for (const resolve of this.waiting.values()) resolve({ approved: false });
    this.waiting.clear();
  }

  get pending(): number {
    return this.waiting.size;
  }
}
