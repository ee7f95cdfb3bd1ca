import * as l10n from "@vscode/l10n";
import { useEffect, useState } from "react";
import type { ChatItem } from "../../src/shared/protocol/chat";

/**
 * Whether the model is working with nothing on screen to show for it: the task is busy and the
 * newest item is the user's message or a tool call that has finished (the next reply has not begun).
 */
export function awaitingReply(items: readonly ChatItem[], busy: boolean): boolean {
  if (!busy) return false;
  // A checkpoint row comes after the edit's card: the wait is after the card all the same.
  let at = items.length - 1;
  while (at >= 0 && items[at]!.role === "checkpoint") at--;
  const last = items[at];
  if (last?.role === "user") return true;
  return last?.role === "tool" && (last.status === "done" || last.status === "denied" || last.status === "error");
}

/** "Thinking… 3 s", counted from when the wait began (the component's mount: key it by the item waited after). */
export function Thinking() {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.floor((now - started) / 1000);
  return (
    <div className="waiting" data-testid="waiting">
      <span className="waiting-dot" aria-hidden="true" />
      {l10n.t("Thinking…")}
      {/* Hidden from screen readers: the chat is a live region, and a tick a second is noise. */}
      <span aria-hidden="true">{seconds >= 1 ? ` ${l10n.t("{0} s", seconds)}` : ""}</span>
    </div>
  );
}
