import { resolveModelInfo, type ModelInfo, type ModelResolution } from "../llm/models";
import type { LlmImage, Provider } from "../llm/types";
import type { Logger } from "../ports";

/** A model's description is a quick local or cached answer; past this the task goes on without it. */
const LEARN_TIMEOUT_MS = 10_000;

function learnedKey(provider: Provider): string {
  return `${provider.kind}\u0000${provider.model}`;
}

export type ResolvedModel = ModelResolution & { overridden: boolean };

/** The model table plus the user's overrides, with a bad override logged once rather than per request. */
export class ModelInfoSource {
  private reported = "";
  /**
   * What each provider said about its model, by kind and model: hosts build a provider per request
   * (settings may change between them), and one question per task and model is enough.
   */
  private readonly learned = new Map<string, Partial<ModelInfo> | undefined>();

  constructor(
    private readonly overrides: (() => unknown) | undefined,
    private readonly logger: Logger,
  ) {}

  resolve(provider: Provider): ResolvedModel {
    const overrides = this.overrides?.();
    const resolved = resolveModelInfo(provider.kind, provider.model, overrides, this.learned.get(learnedKey(provider)));
    const report = resolved.errors.join("; ");
    if (report && report !== this.reported) this.logger.warn(`model overrides: ${report}`);
    this.reported = report;
    const overridden = typeof overrides === "object" && overrides !== null && "maxOutputTokens" in overrides && !/maxOutputTokens/.test(report);
    return { ...resolved, overridden };
  }

  /**
   * Asks the provider about its model once (a local server's loaded window, a router's prices). A
   * failure here is not the task's: the table and the overrides still apply, and the request that
   * follows reports a server that is really down.
   */
  async learn(provider: Provider): Promise<void> {
    const key = learnedKey(provider);
    if (!provider.describeModel || this.learned.has(key)) return;
    this.learned.set(key, undefined);
    try {
      this.learned.set(key, await provider.describeModel(AbortSignal.timeout(LEARN_TIMEOUT_MS)));
    } catch (err) {
      this.logger.warn(`could not ask ${provider.kind} about ${provider.model}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The images the current model takes (all of them, or none), and its name for the note. */
  async imagesFor(getProvider: () => Promise<Provider>, images: readonly LlmImage[]): Promise<{ taken: readonly LlmImage[]; model: string }> {
    let provider: Provider;
    try {
      provider = await getProvider();
    } catch (err) {
      // The request will fail the same way and say so in the chat.
      this.logger.warn(`images kept, the model is unknown: ${err instanceof Error ? err.message : String(err)}`);
      return { taken: images, model: "" };
    }
    return { taken: this.resolve(provider).info.supportsImages ? images : [], model: provider.model };
  }
}
