import { useState, type KeyboardEvent } from "react";
import { Pickers } from "./settings/Pickers";
import { send } from "./vscodeApi";

/**
 * While a tool card waits for approval, Enter in the empty input approves it and Escape moves to
 * its feedback box, so an approval never needs the mouse.
 */
export function ChatInput({ busy, waitingCard }: { busy: boolean; waitingCard?: string }) {
  const [text, setText] = useState("");

  const submit = () => {
    const trimmed = text.trim();
    if (!trimmed || busy) return;
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
      <Pickers />
      <div className="input-row">
        <textarea
          data-testid="chat-input"
          aria-label="Message Kiln"
          placeholder={waitingCard ? "Enter approves the waiting call, Escape to reject with feedback" : "Type a task (Enter to send, Shift+Enter for a new line)"}
          value={text}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {busy ? (
          <button data-testid="stop" className="secondary" onClick={() => send({ type: "chat/cancel" })}>
            Stop
          </button>
        ) : (
          <button data-testid="send" disabled={!text.trim()} onClick={submit}>
            Send
          </button>
        )}
      </div>
    </>
  );
}
