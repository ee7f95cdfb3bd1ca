import { send } from "./vscodeApi";

/** Queued messages above the input: each can be removed, and sent now once the task is idle. */
export function QueuedMessages({ queued, paused, busy }: { queued: readonly string[]; paused: boolean; busy: boolean }) {
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
          <button
            className="icon-button"
            data-testid="queued-remove"
            aria-label={`Remove queued message ${index + 1}`}
            title="Remove"
            onClick={() => send({ type: "chat/unqueue", index, send: false })}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
