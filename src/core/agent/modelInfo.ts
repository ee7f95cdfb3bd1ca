import { resolveModelInfo, type ModelResolution } from "../llm/models";
import type { LlmImage, Provider } from "../llm/types";
import type { Logger } from "../ports";

export type ResolvedModel = ModelResolution & { overridden: boolean };

/** The model table plus the user's overrides, with a bad override logged once rather than per request. */
export class ModelInfoSource {
  private reported = "";

  constructor(
    private readonly overrides: (() => unknown) | undefined,
    private readonly logger: Logger,
  ) {}

  resolve(provider: Provider): ResolvedModel {
    const overrides = this.overrides?.();
    const resolved = resolveModelInfo(provider.kind, provider.model, overrides);
    const report = resolved.errors.join("; ");
    if (report && report !== this.reported) this.logger.warn(`model overrides: ${report}`);
    this.reported = report;
    const overridden = typeof overrides === "object" && overrides !== null && "maxOutputTokens" in overrides && !/maxOutputTokens/.test(report);
    return { ...resolved, overridden };
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
