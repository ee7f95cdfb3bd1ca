import * as l10n from "@vscode/l10n";
import type { AssistantItem, ChatItem } from "../../src/shared/protocol/chat";
import { Collapsible } from "./cards/Collapsible";
import { McpRequestCard } from "./cards/McpRequestCard";
import { CheckpointRow } from "./cards/CheckpointRow";
import { Markdown } from "./Markdown";
import { ToolCard } from "./ToolCard";
import { send } from "./vscodeApi";

type QuestionItem = Extract<ChatItem, { role: "question" }>;
type CompletionItem = Extract<ChatItem, { role: "completion" }>;

/**
 * One chat item. `last` says it is the newest: only the newest question's suggestions answer it
 * (an old one's buttons would send an answer to a question no longer asked).
 */
export function Message({ item, busy, last }: { item: ChatItem; busy: boolean; last: boolean }) {
  switch (item.role) {
    case "user":
      return (
        <div className="message user" data-testid="message-user">
          {item.text}
          {item.images && item.images.length > 0 && (
            <div className="user-images">
              {item.images.map((src, i) => (
                // Only data: URLs of the four image types are shown (the CSP allows data: images).
                <img key={i} src={/^data:image\/(png|jpeg|gif|webp);base64,/.test(src) ? src : ""} alt={l10n.t("Image {0} sent with the message", i + 1)} />
              ))}
            </div>
          )}
        </div>
      );
    case "assistant":
      return <Assistant item={item} />;
    case "tool":
      return <ToolCard item={item} />;
    case "question":
      return <Question item={item} answerable={last && !busy} />;
    case "completion":
      return <Completion item={item} />;
    case "mcpRequest":
      return <McpRequestCard item={item} />;
    case "checkpoint":
      return <CheckpointRow item={item} />;
    case "error":
      return (
        <div className="message error" role="alert" data-testid="message-error" data-kind={item.error.kind}>
          <div className="error-text">{item.error.message}</div>
          <div className="error-actions">
            {(item.error.kind === "no_key" || item.error.kind === "auth") && <FixKey busy={busy} />}
            {item.error.retryable && (
              <button data-testid="retry" className={item.error.kind === "auth" || item.error.kind === "no_key" ? "secondary" : undefined} disabled={busy} onClick={() => send({ type: "chat/retry" })}>
                {l10n.t("Retry")}
              </button>
            )}
            {item.error.kind === "budget" && item.error.limit && <RaiseBudget limit={item.error.limit} />}
          </div>
        </div>
      );
  }
}

/** No key, or a key the provider refused: set the key (then the request goes again), or open the provider settings. */
function FixKey({ busy }: { busy: boolean }) {
  return (
    <>
      <button
        data-testid="set-api-key"
        disabled={busy}
        title={l10n.t("Paste the key; it is kept in VS Code's secret storage and the request goes again")}
        onClick={() => send({ type: "chat/setApiKey" })}
      >
        {l10n.t("Set API key")}
      </button>
      <button className="secondary" data-testid="open-settings" onClick={() => send({ type: "chat/openSettings" })}>
        {l10n.t("Open settings")}
      </button>
    </>
  );
}

/** A budget stopped the task: the setting opens to raise it, then Resume (in the header) goes on. */
function RaiseBudget({ limit }: { limit: "maxTokens" | "maxCost" | "maxInputPerRequest" }) {
  return (
    <button className="secondary" data-testid="raise-budget" title={l10n.t("Open the setting of this budget; raise it, then Resume")} onClick={() => send({ type: "chat/raiseBudget", limit })}>
      {l10n.t("Raise budget")}
    </button>
  );
}

/** Reasoning folded (open while it streams with nothing else to show yet), then the reply as Markdown. */
function Assistant({ item }: { item: AssistantItem }) {
  const thinking = item.partial && item.text === "";
  return (
    <div className="message assistant" data-testid="message-assistant" data-partial={item.partial ? "true" : "false"}>
      {item.reasoning && (
        <Collapsible className="reasoning" testId="reasoning" autoOpen={thinking} summary={thinking ? l10n.t("Reasoning…") : l10n.t("Reasoning")}>
          {() => <div className="reasoning-text">{item.reasoning}</div>}
        </Collapsible>
      )}
      {item.text !== "" && <Markdown text={item.text} />}
    </div>
  );
}

/** `code` -> `Code`, `my-mode` -> `My mode`: a mode slug as a button says it. */
function modeName(slug: string): string {
  const words = slug.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A follow-up question with its suggested answers as buttons. A suggestion may name a mode: picking
 * it switches the task to that mode, then answers, so the model's next turn runs in it.
 */
function Question({ item, answerable }: { item: QuestionItem; answerable: boolean }) {
  return (
    <div className="message question" data-testid="message-question">
      <Markdown text={item.question} />
      {item.suggestions.length > 0 && (
        <div className="suggestions">
          {item.suggestions.map((s, i) => (
            <button
              key={i}
              className="secondary suggestion"
              data-testid="suggestion"
              disabled={!answerable}
              onClick={() => {
                // The host handles messages in order: the answer goes out in the new mode.
                if (s.mode) send({ type: "chat/setMode", slug: s.mode });
                send({ type: "chat/send", text: s.text });
              }}
            >
              {s.text}
              {s.mode && <span className="suggestion-mode"> {l10n.t("(switch to {0})", modeName(s.mode))}</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The task's result, a way to run what it proposes, and a way to move on. */
function Completion({ item }: { item: CompletionItem }) {
  const command = item.command?.trim();
  return (
    <div className="message completion" data-testid="message-completion">
      <div className="completion-title">
        <span className="codicon codicon-pass" aria-hidden="true" />
        {l10n.t("Task completed")}
      </div>
      <Markdown text={item.result} />
      {command && (
        <div className="completion-command">
          <code>{command}</code>
          <button data-testid="run-command" title={l10n.t("Run in a Kiln terminal")} onClick={() => send({ type: "chat/runCommand", command })}>
            {l10n.t("Run")}
          </button>
        </div>
      )}
      <div className="completion-actions">
        <button className="secondary" data-testid="new-task" onClick={() => send({ type: "chat/newTask" })}>
          {l10n.t("Start new task")}
        </button>
      </div>
    </div>
  );
}
