import { describe, expect, it } from "vitest";
import { httpFailure, parseRetryAfter } from "../../src/core/llm/errors";
import { createProvider } from "../../src/core/llm/createProvider";

describe("Retry-After", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("provider settings", () => {
  it("needs a key for anthropic and openai, and says how to set it", () => {
    for (const kind of ["anthropic", "openai"] as const) {
      expect(() => createProvider({ kind, baseUrl: "", model: "", apiKey: undefined })).toThrow(/Set API Key/);
    }
  });

  it("needs a base URL and a model for openai-compatible, but no key", () => {
    expect(() => createProvider({ kind: "openai-compatible", baseUrl: "", model: "m", apiKey: undefined })).toThrow(/kiln\.provider\.baseUrl/);
    expect(() => createProvider({ kind: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1", model: "", apiKey: undefined })).toThrow(/kiln\.provider\.model/);
    expect(createProvider({ kind: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1", model: "m", apiKey: undefined }).model).toBe("m");
  });

  it("refuses a base URL that is not http(s)", () => {
    expect(() => createProvider({ kind: "openai", baseUrl: "file:///etc/passwd", model: "", apiKey: "k" })).toThrow(/not an http\(s\) URL/);
  });
});

describe("httpFailure: every provider's errors as the same kinds a person can act on", () => {
  it.each([
    [{ status: 401, detail: "invalid x-api-key" }, "auth"],
    [{ status: 400, detail: "API key not valid. Please pass a valid API key.", code: "INVALID_ARGUMENT" }, "auth"],
    [{ status: 403, detail: "The security token included in the request is invalid.", code: "UnrecognizedClientException" }, "auth"],
    [{ status: 403, detail: "You don't have access to the model with the specified model ID.", code: "AccessDeniedException" }, "no_access"],
    [{ status: 404, detail: 'model "llama9" not found, try pulling it first' }, "model_not_found"],
    [{ status: 404, detail: "Not Found" }, "bad_request"],
    [{ status: 429, detail: "Too many requests", retryAfter: "7" }, "rate_limit"],
    [{ status: 400, detail: "Too many tokens, please wait before trying again.", code: "ThrottlingException" }, "rate_limit"],
    [{ status: 529, detail: "Overloaded" }, "overloaded"],
    [{ status: 503, detail: "Bedrock is unable to process your request.", code: "ServiceUnavailableException" }, "overloaded"],
    [{ status: 500, detail: "Internal error" }, "server"],
    [{ status: 400, detail: "prompt is too long: 212000 tokens > 200000 maximum" }, "context_too_long"],
    [{ status: 400, detail: "This model's maximum context length is 128000 tokens." }, "context_too_long"],
    [{ status: 400, detail: "Input is too long for requested model.", code: "ValidationException" }, "context_too_long"],
    [{ status: 400, detail: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy." }, "refused"],
    [{ status: 400, detail: "messages: roles must alternate" }, "bad_request"],
  ] as const)("%j is %s, with the provider's words kept", (failure, kind) => {
    const err = httpFailure(failure, "Acme");
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(failure.status);
    expect(err.providerDetail).toBe(failure.detail);
    expect(err.message).toContain("Acme");
    expect(err.message).toContain(failure.detail);
  });

  it("keeps Retry-After for a rate limit", () => {
    expect(httpFailure({ status: 429, detail: "slow down", retryAfter: "12" }, "Acme").retryAfterMs).toBe(12_000);
  });
});
