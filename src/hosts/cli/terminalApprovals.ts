import { createInterface } from "node:readline/promises";
import type { ApprovalDecision, ApprovalRequest, Approvals } from "../../core/ports/approvals";

/**
 * Asks on the terminal when there is one; without a terminal (CI, pipes) anything not
 * auto-approved is denied, and the model is told how to get it allowed.
 */
export class TerminalApprovals implements Approvals {
  constructor(private readonly interactive: boolean) {}

  async request(request: ApprovalRequest): Promise<ApprovalDecision> {
    if (!this.interactive) {
      const kind = request.category ?? request.group;
      const why = request.protectedPaths?.length
        ? `${request.protectedPaths.join(", ")} is protected and always needs a person`
        : request.alwaysAsk
          ? "this call always needs a person"
          : request.outsideWorkspace
            ? "it reaches outside the workspace"
            : // The policy's reason (a command not on the allowed list, a limit reached) says it best.
              request.reason
              ? undefined
              : `${kind} calls are not auto-approved (add ${kind} to --approve)`;
      const said = why === undefined ? request.reason : `${why}${request.reason ? ` (${request.reason})` : ""}.`;
      return { approved: false, feedback: `Not approved in this headless run: ${said}` };
    }
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      if (request.diff) process.stderr.write(`${request.diff}\n`);
      if (request.reason) process.stderr.write(`kiln: ${request.reason}\n`);
      const where = request.outsideWorkspace ? " (outside the workspace)" : request.protectedPaths?.length ? ` (protected: ${request.protectedPaths.join(", ")})` : "";
      const answer = (await rl.question(`kiln: ${request.summary}${where}. Approve? [y = yes, Enter = no, or type feedback] `)).trim();
      if (/^(y|yes)$/i.test(answer)) return { approved: true };
      return { approved: false, feedback: answer || undefined };
    } finally {
      rl.close();
    }
  }
}
