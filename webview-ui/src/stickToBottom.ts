import { useCallback, useRef } from "react";
import type { VirtuosoHandle } from "react-virtuoso";

/** How near its end the user must scroll the chat for it to keep to the newest row again. */
export const AT_BOTTOM_PX = 40;

/**
 * Keeps the chat at its newest row until the user scrolls up, and again once they scroll back down:
 * when a row is added, and when a row grows in place (a streamed reply, a tool card that gains its
 * approval and diff). Virtuoso's own followOutput="auto" follows new rows only while it counts the
 * list as at the bottom, and a row that grows more than 100 ms after a render (a slow layout on a
 * busy machine) makes it count the list as left: it then stopped following for good, so the
 * Approve buttons and the task's completion stayed below the fold, not even rendered. Here only
 * the user's scrolling up lets go of the bottom.
 */
export function useStickToBottom() {
  const list = useRef<VirtuosoHandle>(null);
  const stick = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  const last = useRef({ top: 0, height: 0 });

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const { scrollTop: top, scrollHeight: height, clientHeight } = el;
    if (height - top - clientHeight <= AT_BOTTOM_PX) stick.current = true;
    // Moved up with the content's height unchanged: the user scrolled, not a row that shrank.
    else if (top < last.current.top && height === last.current.height) stick.current = false;
    last.current = { top, height };
  }, []);

  const scrollerRef = useCallback(
    (el: HTMLElement | Window | null) => {
      scroller.current?.removeEventListener("scroll", onScroll);
      scroller.current = el instanceof HTMLElement ? el : null;
      scroller.current?.addEventListener("scroll", onScroll, { passive: true });
    },
    [onScroll],
  );

  // Called by Virtuoso when rows are added: whether to follow them whatever it thinks of the bottom.
  const followOutput = useCallback(() => (stick.current ? ("auto" as const) : false), []);

  // The rows' measured height changed (one grew in place, or a new one was measured).
  const totalListHeightChanged = useCallback(() => {
    if (stick.current) list.current?.scrollToIndex({ index: "LAST", align: "end" });
  }, []);

  return { ref: list, scrollerRef, followOutput, totalListHeightChanged };
}
