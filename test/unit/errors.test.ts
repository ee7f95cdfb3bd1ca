import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/core/llm/errors";
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
