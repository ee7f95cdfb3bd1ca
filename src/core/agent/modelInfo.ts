import { resolveModelInfo, type ModelResolution } from "../llm/models";
import type { Provider } from "../llm/types";
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
}
