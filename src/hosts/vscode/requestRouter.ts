import type * as vscode from "vscode";
import type { Logger } from "../../core/ports";
import { parseParams } from "../../shared/protocol/parse";
import { MAX_REQUEST_ERROR, RequestError, type CheckedParamsOf, type RequestEnvelope, type RequestMap, type ResponseEnvelope, type ResultOf } from "../../shared/protocol/requests";

export type RequestHandler<M extends RequestMap, K extends keyof M> = (params: CheckedParamsOf<M, K>) => Promise<ResultOf<M, K>> | ResultOf<M, K>;

/**
 * The host's end of one page's requests (shared/protocol/requests.ts): features register a handler
 * per method; each request's params are checked against the method's schema before its handler
 * runs, and every request gets exactly one response, an error included.
 */
export class RequestRouter<M extends RequestMap> {
  private readonly handlers = new Map<string, (params: unknown) => unknown>();

  constructor(
    private readonly methods: M,
    private readonly respond: (response: ResponseEnvelope) => void,
    private readonly logger: Logger,
    /** Names the page in log lines. */
    private readonly name: string,
  ) {}

  onRequest<K extends keyof M & string>(method: K, handler: RequestHandler<M, K>): vscode.Disposable {
    if (this.handlers.has(method)) throw new Error(`${this.name}: a handler for ${method} is already registered`);
    this.handlers.set(method, handler as (params: unknown) => unknown);
    return { dispose: () => this.handlers.get(method) === handler && this.handlers.delete(method) };
  }

  /** Answers one request; resolves once the response is posted. Never throws. */
  async handle(request: RequestEnvelope): Promise<void> {
    const { id, method } = request;
    const fail = (message: string, field?: string) =>
      this.respond({ type: "response", id, ok: false, error: { message: message.slice(0, MAX_REQUEST_ERROR), ...(field !== undefined ? { field } : {}) } });
    const spec = Object.hasOwn(this.methods, method) ? this.methods[method] : undefined;
    const handler = this.handlers.get(method);
    if (!spec || !handler) {
      this.logger.warn(`${this.name}: no handler for request ${method.slice(0, 100)}`);
      return fail(`Kiln cannot answer ${method.slice(0, 100)} here`);
    }
    const parsed = parseParams(spec.params, request.params, method);
    if (!parsed.ok) {
      this.logger.warn(`${this.name}: refused ${parsed.reason}`);
      return fail(parsed.reason);
    }
    try {
      const result = await handler(parsed.message);
      this.respond({ type: "response", id, ok: true, result });
    } catch (err) {
      if (err instanceof RequestError) return fail(err.message, err.field);
      const text = err instanceof Error ? err.message : String(err);
      this.logger.error(`${this.name}: ${method} failed: ${text}`);
      fail(text);
    }
  }
}
