import * as l10n from "@vscode/l10n";
import { send } from "./vscodeApi";

/** Queued messages above the input: each can be removed, and sent now once the task is idle. */
export function QueuedMessages({ queued, paused, busy }: { queued: readonly string[]; paused: boolean; busy: boolean }) {
  return (
    <div className="queue" data-testid="queue" aria-label={l10n.t("Queued messages")}>
      <div className="queue-title">{paused ? l10n.t("Queued (paused after Stop: send or remove each)") : l10n.t("Queued, sent when Kiln is ready")}</div>
      {queued.map((message, index) => (
        <div className="queued" data-testid="queued" key={`${index}:${message}`}>
          <span className="queued-text" title={message}>
            {message}
          </span>
          {!busy && (
            <button className="icon-button" data-testid="queued-send" title={l10n.t("Send now")} onClick={() => send({ type: "chat/unqueue", index, send: true })}>
              {l10n.t("Send")}
            </button>
          )}
          <button
            className="icon-button"
            data-testid="queued-remove"
            aria-label={l10n.t("Remove queued message {0}", index + 1)}
            title={l10n.t("Remove")}
            onClick={() => send({ type: "chat/unqueue", index, send: false })}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
