import { memo, useCallback, useSyncExternalStore } from "react";
import { Virtuoso } from "react-virtuoso";
import type { ChatItem } from "../../src/shared/protocol/chat";
import { ChatInput } from "./ChatInput";
import { RetryNotice, TaskSummary } from "./TaskHeader";
import { ToolCard } from "./ToolCard";
import type { ChatStore } from "./store";
import { send } from "./vscodeApi";

export function App({ store }: { store: ChatStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const last = state.items.at(-1);
  // Only the rows on screen render; a long task costs what a short one does.
  const row = useCallback((index: number) => <Row item={state.items[index]!} busy={state.busy} />, [state.items, state.version, state.busy]);

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
      <div className="messages" role="log" aria-live="polite">
        {state.items.length === 0 ? (
          <p className="empty">Ask Kiln anything about your code.</p>
        ) : (
          <Virtuoso
            className="message-list"
            totalCount={state.items.length}
            itemContent={row}
            computeItemKey={(index) => state.items[index]!.id}
            followOutput="auto"
            initialTopMostItemIndex={state.items.length - 1}
            atBottomThreshold={40}
          />
        )}
        {state.busy && last?.role === "user" && (
          <div className="waiting" data-testid="waiting">
            Thinking…
          </div>
        )}
        <RetryNotice retrying={state.retrying} />
      </div>
      <ChatInput busy={state.busy} waitingCard={state.waitingCard} />
    </div>
  );
}

/** Re-renders only when its item was replaced (items are never mutated). */
const Row = memo(function Row({ item, busy }: { item: ChatItem; busy: boolean }) {
  return (
    <div className="row">
      <Message item={item} busy={busy} />
    </div>
  );
});

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
