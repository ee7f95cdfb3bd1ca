import type { ModelInfo } from "./models";
import type { LlmRequest, ModelListing, Provider, ResolvedProviderConfig, StreamEvent } from "./types";

/**
 * A provider whose client module is loaded at its first request. The Gemini, Bedrock and Vertex
 * SDKs (and Google's auth library) are set up when their module first runs; up front, every start
 * of the extension and the CLI would pay for them, used or not (`kiln --help`: 184 MB peak with
 * them loaded, 177 MB without, against 161 MB before they were added).
 */
export class LazyProvider implements Provider {
  readonly kind;
  readonly model;
  readonly baseUrl;
  private loaded: Promise<Provider> | undefined;

  constructor(
    config: ResolvedProviderConfig,
    private readonly load: () => Promise<Provider>,
  ) {
    this.kind = config.kind;
    this.model = config.model;
    this.baseUrl = config.baseUrl;
  }

  private provider(): Promise<Provider> {
    // A failed load (a broken install) is tried again by the next request rather than kept.
    this.loaded ??= this.load().catch((err: unknown) => {
      this.loaded = undefined;
      throw err;
    });
    return this.loaded;
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    yield* (await this.provider()).stream(request);
  }

  async listModels(signal?: AbortSignal): Promise<ModelListing[]> {
    const provider = await this.provider();
    return provider.listModels ? provider.listModels(signal) : [];
  }

  async describeModel(signal?: AbortSignal): Promise<Partial<ModelInfo> | undefined> {
    return (await this.provider()).describeModel?.(signal);
  }
}
