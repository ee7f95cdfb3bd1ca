import { useEffect, useRef, useState } from "react";
import type { ToolItem } from "../../src/shared/protocol/chat";
import { send } from "./vscodeApi";

/** What the call works on, for the card's title: a path, a command, a URL. */
function target(item: ToolItem): string {
  return item.params.path ?? item.params.command ?? item.params.url ?? item.params.regex ?? "";
}

/**
 * A tool call: its parameters while they stream, Approve / Reject while it waits for the user,
 * then its state and result.
 */
export function ToolCard({ item }: { item: ToolItem }) {
  const waiting = item.status === "waiting" && item.approval !== undefined;
  return (
    <div className="message tool" data-testid="message-tool" data-status={item.status} data-card={item.id}>
      <div className="tool-title">
        {item.name} {target(item)} <span className="tool-status">{item.status}</span>
      </div>
      {waiting && <ApprovalBox id={item.id} approval={item.approval!} />}
      {item.result !== undefined && (
        <details>
          <summary>Result</summary>
          <pre>{item.result}</pre>
        </details>
      )}
    </div>
  );
}

function ApprovalBox({ id, approval }: { id: string; approval: NonNullable<ToolItem["approval"]> }) {
  const [feedback, setFeedback] = useState("");
  const approveRef = useRef<HTMLButtonElement>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  // Keyboard first: Enter approves, unless the user is typing (never take their keystrokes).
  useEffect(() => {
    const typing = document.activeElement instanceof HTMLTextAreaElement || document.activeElement instanceof HTMLInputElement;
    if (!typing) approveRef.current?.focus();
  }, []);
  const answer = (approved: boolean) => send({ type: "chat/approval", id, approved, ...(approved || !feedback.trim() ? {} : { feedback: feedback.trim() }) });
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      feedbackRef.current?.focus();
    }
  };
  return (
    <div className="approval" data-testid="approval" onKeyDown={onKeyDown}>
      <div className="approval-summary">
        {approval.summary}
        {approval.outsideWorkspace && <span className="badge"> outside the workspace</span>}
        {approval.protectedPaths?.length ? <span className="badge"> protected: {approval.protectedPaths.join(", ")}</span> : null}
      </div>
      {approval.reason && <div className="approval-reason">{approval.reason}</div>}
      {approval.diff && <pre className="diff" data-testid="approval-diff">{approval.diff}</pre>}
      <div className="approval-actions">
        <button ref={approveRef} data-testid="approve" onClick={() => answer(true)}>
          Approve
        </button>
        <button className="secondary" data-testid="reject" onClick={() => answer(false)}>
          Reject
        </button>
      </div>
      <textarea
        ref={feedbackRef}
        data-testid="feedback"
        rows={2}
        placeholder="Reject with feedback (Enter sends, Shift+Enter for a new line)"
        value={feedback}
        onChange={(e) => setFeedback(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && feedback.trim()) {
            e.preventDefault();
            answer(false);
          }
        }}
      />
    </div>
  );
}
