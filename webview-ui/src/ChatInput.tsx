import { useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import type { AttachedImage } from "../../src/shared/protocol/messages";
import { readImageFile, roomFor } from "./attachments";
import { QueuedMessages } from "./QueuedMessages";
import { useInputRequest } from "./inputRequest";
import type { InputRequest } from "./store";
import { Pickers } from "./settings/Pickers";
import { useInputPicker } from "./InputPicker";
import { send } from "./vscodeApi";
import * as l10n from "@vscode/l10n";

interface Props {
  busy: boolean;
  waitingCard?: string;
  queued?: readonly string[];
  queuePaused?: boolean;
  /** Whether the current model takes images, and its name for the hint when it does not. */
  images?: boolean;
  model?: string;
  /** Add to Context and the focus keybinding, from the host. */
  inputRequest?: InputRequest;
}

/**
 * While a tool card waits for approval, Enter in the empty input approves it and Escape moves to
 * its feedback box, so an approval never needs the mouse. Images pasted or dropped here go with
 * the message when the model takes them.
 */
export function ChatInput({ busy, waitingCard, queued = [], queuePaused = false, images = false, model = "", inputRequest }: Props) {
  const [text, setText] = useState("");
  const inputRef = useRef<HTMLTextAreaElement>(null);
  useInputRequest(inputRequest, setText, inputRef);
  const picker = useInputPicker(text, setText, inputRef);
  const [attached, setAttached] = useState<AttachedImage[]>([]);
  const [problem, setProblem] = useState<string | undefined>();

  // While the task is busy the host queues the message and sends it when the task is ready.
  const submit = () => {
    const trimmed = text.trim();
    if (!trimmed && attached.length === 0) return;
    send({ type: "chat/send", text: trimmed, ...(attached.length > 0 ? { images: attached } : {}) });
    setText("");
    setAttached([]);
    setProblem(undefined);
  };

  const attach = async (files: File[]) => {
    const candidates = files.filter((f) => f.type.startsWith("image/"));
    if (candidates.length === 0) return;
    if (!images) {
      setProblem(model ? l10n.t("{0} does not take images; pick a vision model to attach them.", model) : l10n.t("This model does not take images; pick a vision model to attach them."));
      return;
    }
    const room = roomFor(attached.length);
    const read = await Promise.all(candidates.slice(0, room).map(readImageFile));
    const good = read.flatMap((r) => (r.ok ? [r.image] : []));
    const reasons = read.flatMap((r) => (r.ok ? [] : [r.reason]));
    if (candidates.length > room) reasons.push(l10n.t("at most {0} images per message", attached.length + room));
    setAttached((current) => [...current, ...good].slice(0, current.length + room));
    setProblem(reasons.length > 0 ? l10n.t("Not attached: {0}.", reasons.join("; ")) : undefined);
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.some((f) => f.type.startsWith("image/"))) {
      event.preventDefault();
      void attach(files);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    const files = [...event.dataTransfer.files];
    if (files.length === 0) return;
    event.preventDefault();
    void attach(files);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An open @ or / picker takes the arrows, Enter, Tab and Escape.
    if (picker.onKeyDown(event)) return;
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (waitingCard && !text.trim() && attached.length === 0) send({ type: "chat/approval", id: waitingCard, approved: true });
      else submit();
    } else if (event.key === "Escape" && waitingCard) {
      event.preventDefault();
      document.querySelector<HTMLTextAreaElement>(`[data-card="${CSS.escape(waitingCard)}"] [data-testid="feedback"]`)?.focus();
    } else if (event.key === "." && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      // Ctrl+. (Cmd+.) cycles the mode. Asked of the host from here: a key pressed in a webview
      // does not reliably reach VS Code's keybindings (in code-server it never did).
      event.preventDefault();
      send({ type: "chat/cycleMode" });
    }
  };

  const hasInput = text.trim() !== "" || attached.length > 0;
  return (
    <>
      {queued.length > 0 && <QueuedMessages queued={queued} paused={queuePaused} busy={busy} />}
      <Pickers />
      {attached.length > 0 && (
        <div className="attachments" data-testid="attachments">
          {attached.map((image, index) => (
            <span className="attachment" key={index}>
              <img src={`data:${image.mediaType};base64,${image.data}`} alt={l10n.t("Attached image {0}", index + 1)} />
              <button className="icon-button" aria-label={l10n.t("Remove image {0}", index + 1)} onClick={() => setAttached((all) => all.filter((_, i) => i !== index))}>
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      {problem && (
        <div className="attach-problem" role="alert" data-testid="attach-problem">
          {problem}
        </div>
      )}
      {picker.list}
      <div className="input-row" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
        <textarea
          ref={inputRef}
          data-testid="chat-input"
          aria-label={l10n.t("Message Kiln")}
          placeholder={
            waitingCard
              ? l10n.t("Enter approves the waiting call, Escape to reject with feedback; or type a message to queue")
              : busy
                ? l10n.t("Type a message to queue; it goes to Kiln when it is ready")
                : images
                  ? l10n.t("Type a task (Enter to send, Shift+Enter for a new line; paste or drop images)")
                  : l10n.t("Type a task (Enter to send, Shift+Enter for a new line)")
          }
          value={text}
          rows={3}
          onChange={(event) => {
            setText(event.target.value);
            picker.setCaret(event.target.selectionStart ?? event.target.value.length);
          }}
          {...picker.inputProps}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <div className="input-buttons">
          {(!busy || hasInput) && (
            <button data-testid="send" disabled={!hasInput} onClick={submit}>
              {busy ? l10n.t("Queue") : l10n.t("Send")}
            </button>
          )}
          {busy && (
            <button data-testid="stop" className="secondary" onClick={() => send({ type: "chat/cancel" })}>
              {l10n.t("Stop")}
            </button>
          )}
        </div>
      </div>
    </>
  );
}
