import type { LlmImage } from "../llm/types";

export interface Viewport {
  width: number;
  height: number;
}

/** What the page looks like after an action: the model sees the screenshot and reads the rest. */
export interface BrowserSnapshot {
  url: string;
  viewport: Viewport;
  screenshot: LlmImage;
  /** Console lines and page errors since the previous action, oldest first, already capped. */
  logs: string[];
  /** Lines left out of `logs` by the cap, so the model knows there were more. */
  droppedLogs: number;
}

export type BrowserInput =
  | { kind: "click" | "hover"; x: number; y: number }
  | { kind: "type"; text: string }
  /** A key name ("Enter", "ArrowDown") or a chord ("Control+A"). */
  | { kind: "press"; key: string }
  | { kind: "scroll"; direction: "down" | "up" }
  | { kind: "resize"; width: number; height: number }
  | { kind: "screenshot" };

/**
 * One task's browser. Nothing runs until `launch`; the model ends it with `close`, and the host
 * calls `dispose` when the task ends so no browser outlives its task. Failures throw
 * `BrowserError`, whose message is written for the model (or the user) to act on.
 */
export interface BrowserSession {
  readonly isOpen: boolean;
  /** The viewport that coordinates are checked against (the default until a resize). */
  readonly viewport: Viewport;
  /**
   * Starts the browser if needed and opens `url`. `signal` (the task's) cuts the waiting short.
   * `guard` judges every request the page makes from then on (redirects and subresources too).
   */
  launch(url: string, signal?: AbortSignal, guard?: NavigationCheck): Promise<BrowserSnapshot>;
  act(input: BrowserInput, signal?: AbortSignal): Promise<BrowserSnapshot>;
  close(): Promise<void>;
  /** Closes the browser if it is open; never throws. */
  dispose(): Promise<void>;
}

/** Why the browser may not load a URL, or undefined when it may. */
export type NavigationCheck = (url: string) => Promise<string | undefined>;

/** Makes a session per task (a subtask gets its own), so each can be closed with its task. */
export type BrowserSessionFactory = () => BrowserSession;
