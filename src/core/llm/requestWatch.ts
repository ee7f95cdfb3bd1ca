import * as l10n from "@vscode/l10n";
import { CancelledError, ProviderError } from "./errors";

/**
 * How long a request may wait on the provider. Both measure silence, not the length of a reply: a
 * model that keeps streaming may take as long as it likes.
 */
export interface StreamTimeouts {
  /**
   * From sending the request to the reply's first text, reasoning or tool call. Generous: a local
   * model reads a long prompt before it writes anything, and a reasoning model may think for
   * minutes without streaming its thoughts.
   */
  firstReplyMs: number;
  /** Once the reply has begun: the longest gap between two events from the server. */
  idleMs: number;
}

/** Bounds shared by the VS Code settings and the CLI flags, in seconds. */
export const FIRST_REPLY_TIMEOUT_SECONDS = { min: 1, max: 3600, default: 300 } as const;
export const IDLE_TIMEOUT_SECONDS = { min: 1, max: 3600, default: 120 } as const;

export const DEFAULT_STREAM_TIMEOUTS: StreamTimeouts = {
  firstReplyMs: FIRST_REPLY_TIMEOUT_SECONDS.default * 1000,
  idleMs: IDLE_TIMEOUT_SECONDS.default * 1000,
};

/**
 * One request's own abort signal and its idle timeouts.
 *
 * The SDK gets this request's signal, never the caller's: the caller's (a task's) lives across many
 * requests, and an SDK that adds an abort listener per request and never removes it piles them up
 * there. Here the caller's signal gets exactly one listener, removed when the request ends.
 *
 * Every await on the SDK goes through `guard`, which also settles on a timeout or a cancel, so a
 * connection that stays open and silent cannot hold the request, whatever the SDK does with the abort.
 */
export class RequestWatch {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the reply's first content has come: the idle timeout applies from then on. */
  private replying = false;
  private lastEventAt = 0;
  /** Set when a timeout ended the request: the error the caller reports. */
  private timedOut: ProviderError | undefined;
  /** Rejects the await in progress, if any. */
  private rejectWaiting: ((err: unknown) => void) | undefined;
  private readonly onCallerAbort = () => this.stop(new CancelledError());

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeouts: StreamTimeouts,
    private readonly providerName: string,
  ) {
    if (caller?.aborted) {
      this.controller.abort();
      return;
    }
    caller?.addEventListener("abort", this.onCallerAbort, { once: true });
    this.arm(timeouts.firstReplyMs);
  }

  /** The error to throw when the request failed: a timeout's own, or the cancel's. */
  failure(err: unknown): unknown {
    if (this.timedOut) return this.timedOut;
    if (this.caller?.aborted) return new CancelledError();
    return err;
  }

  /** An event came from the server; `content`: it carries part of the reply. */
  event(content: boolean): void {
    if (this.replying) {
      this.lastEventAt = performance.now();
      return;
    }
    if (!content) return;
    // The reply has begun: from now on the idle timeout measures the gaps.
    this.replying = true;
    this.lastEventAt = performance.now();
    clearTimeout(this.timer);
    this.arm(this.timeouts.idleMs);
  }

  /** `promise`, unless the request times out or is cancelled first. */
  guard<T>(promise: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      // The SDK settles `promise` on its own (rejected, for the abort): nothing may be left unhandled.
      promise.catch(() => undefined);
      return Promise.reject(this.failure(new CancelledError()));
    }
    return new Promise<T>((resolve, reject) => {
      this.rejectWaiting = reject;
      promise.then(
        (value) => {
          this.rejectWaiting = undefined;
          resolve(value);
        },
        (err: unknown) => {
          this.rejectWaiting = undefined;
          reject(err);
        },
      );
    });
  }

  /** The request ended (done, failed or abandoned): no timer, no listener left behind. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.caller?.removeEventListener("abort", this.onCallerAbort);
    // Whatever the SDK still holds open for this request (a socket, a reader) is let go.
    if (!this.signal.aborted) this.controller.abort();
  }

  private arm(ms: number): void {
    // Decided after the event loop's next poll: when the loop was busy past the deadline, events that
    // came meanwhile are read first, so a slow consumer does not count as a silent server.
    // A timer set again meanwhile (the reply began) makes this one moot.
    const timer = setTimeout(() => setImmediate(() => this.timer === timer && this.check()), ms);
    this.timer = timer;
    // A timer must not keep a finished CLI process alive.
    timer.unref?.();
  }

  /**
   * The timer went off: before the reply began, that is the first-reply timeout; after, the reply
   * has gone silent only if no event came since, else the timer is set for the rest of the gap.
   */
  private check(): void {
    this.timer = undefined;
    if (this.signal.aborted) return;
    if (!this.replying) return this.expire(this.timeouts.firstReplyMs, false);
    const silentFor = performance.now() - this.lastEventAt;
    if (silentFor >= this.timeouts.idleMs) return this.expire(this.timeouts.idleMs, true);
    this.arm(this.timeouts.idleMs - silentFor);
  }

  private expire(ms: number, midReply: boolean): void {
    const seconds = Math.round(ms / 1000);
    this.timedOut = new ProviderError(
      "network",
      midReply
        ? l10n.t("No reply from {0} in {1} s: the reply had begun, then nothing more came (the idle timeout).", this.providerName, seconds)
        : l10n.t("No reply from {0} in {1} s: the connection is open but nothing came (the first-reply timeout; a slow or local model may need a longer one).", this.providerName, seconds),
    );
    this.stop(this.timedOut);
  }

  private stop(err: unknown): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.controller.abort(err);
    const reject = this.rejectWaiting;
    this.rejectWaiting = undefined;
    reject?.(err);
  }
}

/**
 * Iterates `source` (an SDK's stream of events) under `watch`: each wait for the next event may end
 * in a timeout or a cancel. `isContent` says which events are part of the reply itself; the others
 * (a message start, a ping, an empty chunk) only show that the server is still there.
 */
export async function* watchedEvents<T>(source: AsyncIterable<T>, watch: RequestWatch, isContent: (event: T) => boolean): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = await watch.guard(iterator.next());
      if (next.done) {
        finished = true;
        return;
      }
      watch.event(isContent(next.value));
      yield next.value;
    }
  } finally {
    // Stopped early (a timeout, a cancel, or the reader had enough): the SDK closes its side.
    if (!finished) iterator.return?.().catch(() => undefined);
  }
}
