import type * as vscode from "vscode";
import type { Logger } from "../../core/ports";
import { DisposableStore, Emitter } from "../../shared/disposable";
import type { ParsedMessage } from "../../shared/protocol/parse";

export interface WebviewChannelOptions<In> {
  /** Names the page in log lines ("sidebar", "settings"). */
  name: string;
  logger: Logger;
  /** The page's schema: a message that fails it is logged and dropped, never acted on. */
  parse(raw: unknown): ParsedMessage<In>;
  /** Acts on a valid message; a failure is logged with the message's type. */
  onMessage(message: In): Promise<void> | void;
  /** The message by which a page says it has loaded; until then, what is posted would be lost. */
  readyType?: string;
  /** Called when the page has loaded, before the messages held for it are posted. */
  onReady?(): void;
  /** Called when the attached page goes (the view was closed or moved). */
  onDetach?(): void;
}

/**
 * The host's end of one webview page: one page at a time (a hidden sidebar may drop its page and get
 * a new one), every message in parsed against the page's schema, and messages out either posted now
 * or, with `postWhenReady`, held until the page says it has loaded.
 */
export class WebviewChannel<In extends { type: string }, Out extends { type: string }> implements vscode.Disposable {
  private webview: vscode.Webview | undefined;
  private ready = false;
  /** Messages that must reach the page (focus the input, add text to it) made while it was loading. */
  private readonly held: Out[] = [];
  private readonly listeners = new DisposableStore();
  private readonly posted = new Emitter<Out>();
  /** Every message sent to the page, for the in-host tests. */
  readonly onDidPost = this.posted.event;

  constructor(private readonly options: WebviewChannelOptions<In>) {}

  /** Whether a page is attached (it may still be loading). */
  get attached(): boolean {
    return this.webview !== undefined;
  }

  attach(webview: vscode.Webview): vscode.Disposable {
    this.listeners.clear();
    this.webview = webview;
    this.ready = false;
    this.listeners.add(webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    return { dispose: () => this.detach(webview) };
  }

  /** Entry point for everything the page sends; resolves once the message has been acted on. */
  async receive(raw: unknown): Promise<void> {
    const { name, logger } = this.options;
    const parsed = this.options.parse(raw);
    if (!parsed.ok) {
      logger.warn(`${name}: dropped ${parsed.reason}`);
      return;
    }
    const message = parsed.message;
    if (message.type === this.options.readyType) {
      this.ready = true;
      this.options.onReady?.();
      for (const waiting of this.held.splice(0)) this.post(waiting);
    }
    try {
      await this.options.onMessage(message);
    } catch (err) {
      logger.error(`${name}: ${message.type} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  post(message: Out): void {
    this.posted.fire(message);
    void this.webview?.postMessage(message).then(undefined, (err: unknown) => {
      this.options.logger.warn(`${this.options.name}: could not post ${message.type}: ${String(err)}`);
    });
  }

  /** Posts now if the page has loaded, else once it has (a few at most: they are the user's own requests). */
  postWhenReady(message: Out): void {
    if (this.webview && this.ready) return this.post(message);
    if (this.held.length < 20) this.held.push(message);
  }

  dispose(): void {
    this.listeners.dispose();
    this.posted.dispose();
    this.webview = undefined;
  }

  private detach(webview: vscode.Webview): void {
    if (this.webview !== webview) return;
    this.webview = undefined;
    this.ready = false;
    this.listeners.clear();
    this.options.onDetach?.();
  }
}
