import * as l10n from "@vscode/l10n";
import { memo, useCallback, useState, useSyncExternalStore } from "react";
import { Virtuoso } from "react-virtuoso";
import type { ChatItem } from "../../src/shared/protocol/chat";
import { ChatInput } from "./ChatInput";
import { EmptyChat } from "./EmptyChat";
import { Welcome } from "./Welcome";
import { AutoApproveBar } from "./AutoApproveBar";
import { Message } from "./Message";
import { RetryNotice, TaskSummary } from "./TaskHeader";
import { Thinking, awaitingReply } from "./Thinking";
import type { ChatStore } from "./store";
import { McpView } from "./mcp/McpView";
import { McpStore } from "./mcp/mcpStore";
import { HistoryView } from "./history/HistoryView";
import { HistoryStore } from "./history/historyStore";
import { AT_BOTTOM_PX, useStickToBottom } from "./stickToBottom";

export function App({ store, mcp: given, history: givenHistory }: { store: ChatStore; mcp?: McpStore; history?: HistoryStore }) {
  // Tests of the chat alone render the page without them.
  const [own] = useState(() => new McpStore());
  const [ownHistory] = useState(() => new HistoryStore());
  const mcp = given ?? own;
  const history = givenHistory ?? ownHistory;
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const view = useSyncExternalStore(mcp.subscribe, () => mcp.get().view);
  const follow = useStickToBottom();
  const last = state.items.at(-1);
  // Only the rows on screen render; a long task costs what a short one does.
  const count = state.items.length;
  const row = useCallback(
    (index: number) => <Row item={state.items[index]!} busy={state.busy} last={index === count - 1} />,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the log grows in place; its version says a row changed
    [state.items, state.version, state.busy, count],
  );

  return (
    <div className="app">
      {/* One toolbar: New task, MCP servers, history and settings are the view's title icons. */}
      {view !== "chat" && <BackToChat title={view === "mcp" ? l10n.t("MCP servers") : l10n.t("Task history")} store={mcp} />}
      {view === "mcp" && <McpView store={mcp} />}
      {view === "history" && <HistoryView store={history} onOpened={() => mcp.show("chat")} />}
      {/* Hidden rather than unmounted under the other views, so a draft and the scroll position stay. */}
      {view === "chat" && state.welcome && <Welcome info={state.welcome} />}
      <div className="chat-view" data-testid="chat-view" hidden={view !== "chat" || state.welcome !== undefined}>
        {/* An empty chat has no task to sum up yet: its mode is in the picker under the input. */}
        {(state.items.length > 0 || state.busy) && <TaskSummary task={state.task} title={firstUserText(state.items)} busy={state.busy} />}
        <div className="messages" role="log" aria-live="polite">
          {state.items.length === 0 ? (
            // Until the host's first snapshot says otherwise, the chat may well have a task in it.
            state.provider && <EmptyChat provider={state.provider} history={history} />
          ) : (
            <Virtuoso
              className="message-list"
              totalCount={state.items.length}
              itemContent={row}
              computeItemKey={(index) => state.items[index]!.id}
              ref={follow.ref}
              scrollerRef={follow.scrollerRef}
              followOutput={follow.followOutput}
              totalListHeightChanged={follow.totalListHeightChanged}
              initialTopMostItemIndex={state.items.length - 1}
              atBottomThreshold={AT_BOTTOM_PX}
            />
          )}
          {/* Keyed by the item waited after: each new wait counts from zero. */}
          {awaitingReply(state.items, state.busy) && <Thinking key={last?.id} />}
          <RetryNotice retrying={state.retrying} />
        </div>
        {state.autoApprove && <AutoApproveBar state={state.autoApprove} />}
        <ChatInput
          busy={state.busy}
          waitingCard={state.waitingCard}
          queued={state.queued}
          queuePaused={state.queuePaused}
          images={state.provider?.images === true}
          model={state.provider?.model}
          inputRequest={state.inputRequest}
        />
      </div>
    </div>
  );
}

/** Above the MCP and history views: what is shown, and the way back to the chat. */
function BackToChat({ title, store }: { title: string; store: McpStore }) {
  return (
    <div className="view-bar">
      <button className="link-button" data-testid="back-to-chat" title={l10n.t("Back to the chat")} onClick={() => store.show("chat")}>
        <span className="codicon codicon-arrow-left" aria-hidden="true" /> {l10n.t("Chat")}
      </button>
      <h1 className="view-bar-title">{title}</h1>
    </div>
  );
}

/** Re-renders only when its item was replaced (items are never mutated) or stopped being the newest. */
const Row = memo(function Row({ item, busy, last }: { item: ChatItem; busy: boolean; last: boolean }) {
  return (
    <div className="row">
      <Message item={item} busy={busy} last={last} />
    </div>
  );
});

/** The task's title: its first message (a subtask's items come later, so they never take it). */
function firstUserText(items: readonly ChatItem[]): string | undefined {
  const first = items[0];
  return first?.role === "user" ? first.text.split("\n")[0]!.slice(0, 200) : undefined;
}
