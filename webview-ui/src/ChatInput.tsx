import { useState, type KeyboardEvent } from "react";
import { Pickers } from "./settings/Pickers";
import { send } from "./vscodeApi";

/**
 * While a tool card waits for approval, Enter in the empty input approves it and Escape moves to
 * its feedback box, so an approval never needs the mouse.
 */
export function ChatInput({ busy, waitingCard, queued = [], queuePaused = false }: { busy: boolean; waitingCard?: string; queued?: readonly string[]; queuePaused?: boolean }) {
  const [text, setText] = useState("");

  // While the task is busy the host queues the message and sends it when the task is ready.
  const submit = () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    send({ type: "chat/send", text: trimmed });
    setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (waitingCard && !text.trim()) send({ type: "chat/approval", id: waitingCard, approved: true });
      else submit();
    } else if (event.key === "Escape" && waitingCard) {
      event.preventDefault();
      document.querySelector<HTMLTextAreaElement>(`[data-card="${CSS.escape(waitingCard)}"] [data-testid="feedback"]`)?.focus();
    }
  };

  return (
    <>
      {queued.length > 0 && <Queue queued={queued} paused={queuePaused} busy={busy} />}
      <Pickers />
      <div className="input-row">
        <textarea
          data-testid="chat-input"
          aria-label="Message Kiln"
          placeholder={
            waitingCard
              ? "Enter approves the waiting call, Escape to reject with feedback; or type a message to queue"
              : busy
                ? "Type a message to queue; it goes to Kiln when it is ready"
                : "Type a task (Enter to send, Shift+Enter for a new line)"
          }
          value={text}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="input-buttons">
          {(!busy || text.trim()) && (
            <button data-testid="send" disabled={!text.trim()} onClick={submit}>
              {busy ? "Queue" : "Send"}
            </button>
          )}
          {busy && (
            <button data-testid="stop" className="secondary" onClick={() => send({ type: "chat/cancel" })}>
              Stop
            </button>
          )}
        </div>
      </div>
    </>
  );
}

/** Queued messages above the input: each can be removed, and sent now once the task is idle. */
function Queue({ queued, paused, busy }: { queued: readonly string[]; paused: boolean; busy: boolean }) {
  return (
    <div className="queue" data-testid="queue" aria-label="Queued messages">
      <div className="queue-title">{paused ? "Queued (paused after Stop: send or remove each)" : "Queued, sent when Kiln is ready"}</div>
      {queued.map((message, index) => (
        <div className="queued" data-testid="queued" key={`${index}:${message}`}>
          <span className="queued-text" title={message}>
            {message}
          </span>
          {!busy && (
            <button className="icon-button" data-testid="queued-send" title="Send now" onClick={() => send({ type: "chat/unqueue", index, send: true })}>
              Send
            </button>
          )}
          <button className="icon-button" data-testid="queued-remove" aria-label={`Remove queued message ${index + 1}`} title="Remove" onClick={() => send({ type: "chat/unqueue", index, send: false })}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
