import { useState, type KeyboardEvent } from "react";
import { send } from "./vscodeApi";

export function ChatInput({ busy }: { busy: boolean }) {
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
      submit();
    }
  };

  return (
    <div className="input-row">
      <textarea
        data-testid="chat-input"
        aria-label="Message Kiln"
        placeholder="Type a task (Enter to send, Shift+Enter for a new line)"
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
  );
}
