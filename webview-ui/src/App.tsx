import { useEffect, useRef, useSyncExternalStore } from "react";
import type { ChatItem } from "../../src/shared/protocol/chat";
import { ChatInput } from "./ChatInput";
import type { ChatStore } from "./store";
import { send } from "./vscodeApi";

export function App({ store }: { store: ChatStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const listRef = useRef<HTMLDivElement>(null);
  const last = state.items.at(-1);
  const lastSize = last?.role === "assistant" ? last.text.length : 0;

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [state.items.length, lastSize]);

  return (
    <div className="app">
      <header className="header">
        <span className="title">Kiln</span>
        <span className="provider" data-testid="provider">
          {state.provider ? `${state.provider.kind}${state.provider.model ? ` · ${state.provider.model}` : ""}` : "connecting…"}
        </span>
        <button className="icon-button" title="New task" onClick={() => send({ type: "chat/newTask" })}>
          New
        </button>
      </header>
      <div className="messages" ref={listRef} role="log" aria-live="polite">
        {state.items.length === 0 && <p className="empty">Ask Kiln anything about your code.</p>}
        {state.items.map((item) => (
          <Message key={item.id} item={item} busy={state.busy} />
        ))}
        {state.busy && last?.role === "user" && (
          <div className="waiting" data-testid="waiting">
            Thinking…
          </div>
        )}
      </div>
      <ChatInput busy={state.busy} />
    </div>
  );
}

function Message({ item, busy }: { item: ChatItem; busy: boolean }) {
  switch (item.role) {
    case "user":
      return (
        <div className="message user" data-testid="message-user">
          {item.text}
        </div>
      );
    case "assistant":
      return (
        <div className="message assistant" data-testid="message-assistant" data-partial={item.partial ? "true" : "false"}>
          {item.reasoning && (
            <details className="reasoning">
              <summary>Reasoning</summary>
              {item.reasoning}
            </details>
          )}
          {item.text}
        </div>
      );
    case "tool":
      return (
        <div className="message tool" data-testid="message-tool" data-status={item.status}>
          <div className="tool-title">
            {item.name} {item.params.path ?? ""} <span className="tool-status">{item.status}</span>
          </div>
          {item.result !== undefined && (
            <details>
              <summary>Result</summary>
              <pre>{item.result}</pre>
            </details>
          )}
        </div>
      );
    case "question":
      return (
        <div className="message assistant" data-testid="message-question">
          {item.question}
          {item.suggestions.map((s) => (
            <button key={s.text} className="secondary suggestion" disabled={busy} onClick={() => send({ type: "chat/send", text: s.text })}>
              {s.text}
            </button>
          ))}
        </div>
      );
    case "completion":
      return (
        <div className="message completion" data-testid="message-completion">
          {item.result}
        </div>
      );
    case "error":
      return (
        <div className="message error" role="alert" data-testid="message-error" data-kind={item.error.kind}>
          <div className="error-text">{item.error.message}</div>
          {item.error.retryable && (
            <button data-testid="retry" disabled={busy} onClick={() => send({ type: "chat/retry" })}>
              Retry
            </button>
          )}
        </div>
      );
  }
}
