import { useEffect, useRef, useSyncExternalStore } from "react";
import type { ChatItem } from "../../src/shared/protocol/chat";
import { ChatInput } from "./ChatInput";
import { RetryNotice, TaskSummary } from "./TaskHeader";
import { ToolCard } from "./ToolCard";
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
  }, [state.items.length, lastSize, waitingCard(state.items)]);

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
      <TaskSummary task={state.task} />
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
        <RetryNotice retrying={state.retrying} />
      </div>
      <ChatInput busy={state.busy} waitingCard={waitingCard(state.items)} />
    </div>
  );
}

function waitingCard(items: readonly ChatItem[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.role === "tool" && item.status === "waiting" && item.approval) return item.id;
  }
  return undefined;
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
      return <ToolCard item={item} />;
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
