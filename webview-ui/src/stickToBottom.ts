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
 * the user's scrolling up lets go of the bottom: a move up right after their wheel, touch, scroll
 * key or scrollbar drag. A move up with nothing from the user is the list settling (a card taken
 * away as its completion arrives, rows measured again), and judging those by the scroll alone let
 * go of the bottom now and then with no one touching it.
 */
export function useStickToBottom() {
  const list = useRef<VirtuosoHandle>(null);
  const stick = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  const lastTop = useRef(0);
  const gesture = useRef({ at: Number.NEGATIVE_INFINITY, dragging: false });

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const { scrollTop: top, scrollHeight: height, clientHeight } = el;
    if (height - top - clientHeight <= AT_BOTTOM_PX) stick.current = true;
    else if (top < lastTop.current && byUser(gesture.current)) stick.current = false;
    lastTop.current = top;
  }, []);

  const onGesture = useCallback((event: Event) => {
    if (event instanceof KeyboardEvent && !SCROLL_KEYS.has(event.key)) return;
    // A press on the scroller itself, not on a row in it, is a press on its scrollbar.
    if (event.type === "pointerdown") {
      if (event.target !== scroller.current) return;
      gesture.current.dragging = true;
    }
    gesture.current.at = performance.now();
  }, []);
  const onRelease = useCallback(() => {
    if (gesture.current.dragging) gesture.current = { at: performance.now(), dragging: false };
  }, []);

  const scrollerRef = useCallback(
    (el: HTMLElement | Window | null) => {
      const old = scroller.current;
      old?.removeEventListener("scroll", onScroll);
      for (const type of GESTURES) old?.removeEventListener(type, onGesture);
      window.removeEventListener("pointerup", onRelease);
      scroller.current = el instanceof HTMLElement ? el : null;
      if (!scroller.current) return;
      scroller.current.addEventListener("scroll", onScroll, { passive: true });
      for (const type of GESTURES) scroller.current.addEventListener(type, onGesture, { passive: true });
      window.addEventListener("pointerup", onRelease);
    },
    [onScroll, onGesture, onRelease],
  );

  // Called by Virtuoso when rows are added: whether to follow them whatever it thinks of the bottom.
  const followOutput = useCallback(() => (stick.current ? ("auto" as const) : false), []);

  // The rows' measured height changed (one grew in place, or a new one was measured).
  const totalListHeightChanged = useCallback(() => {
    if (stick.current) list.current?.scrollToIndex({ index: "LAST", align: "end" });
  }, []);

  return { ref: list, scrollerRef, followOutput, totalListHeightChanged };
}

const GESTURES = ["wheel", "touchmove", "keydown", "pointerdown"] as const;
const SCROLL_KEYS = new Set(["ArrowUp", "PageUp", "Home", " "]);
/** How long after a wheel turn or a key press its scrolling may still arrive (smooth scrolling). */
const GESTURE_MS = 600;

function byUser(gesture: { at: number; dragging: boolean }): boolean {
  return gesture.dragging || performance.now() - gesture.at < GESTURE_MS;
}
