import { describe, expect, it } from "vitest";
import { explainFailure } from "../../../src/core/llm/connectionCheck";
import { CancelledError, ProviderError } from "../../../src/core/llm/errors";
import type { ProviderConfig, ProviderKind } from "../../../src/core/llm/types";
import { WELCOME_KINDS, welcomeProviderText } from "../../../src/shared/protocol/welcome";
import { inPseudoLocale, translated, useEnglish } from "../pseudoL10n";

const config = (kind: ProviderKind, overrides: Partial<ProviderConfig> = {}): ProviderConfig => ({
  kind,
  baseUrl: kind === "openai-compatible" ? "http://localhost:11434/v1" : "",
  model: "m-1",
  apiKey: "sk-x",
  ...overrides,
});

/** One failure of each kind the welcome's Test connection explains, as the core raises it. */
const FAILURES: [string, unknown, Partial<ProviderConfig>?][] = [
  ["no key", new ProviderError("no_key", "No API key is set.")],
  ["key refused", new ProviderError("auth", "rejected", 401)],
  ["bad base URL", new ProviderError("config", "The base URL is not an http(s) URL."), { baseUrl: "ftp://x" }],
  ["refused connection", new ProviderError("network", "connect ECONNREFUSED 127.0.0.1:1")],
  ["unknown host", new ProviderError("network", "getaddrinfo ENOTFOUND nowhere")],
  ["network", new ProviderError("network", "socket hang up")],
  ["no such model", new ProviderError("bad_request", "bad", 400, undefined, "model not found")],
  ["404", new ProviderError("bad_request", "not found", 404)],
  ["bad request", new ProviderError("bad_request", "bad", 400)],
  ["rate limit", new ProviderError("rate_limit", "slow down", 429)],
  ["server error", new ProviderError("server", "boom", 500)],
  ["not that API", new ProviderError("stream", "garbled")],
  ["cancelled", new CancelledError()],
];

describe("Test connection's words are the user's language", () => {
  inPseudoLocale();

  describe.each(["anthropic", "openai", "openai-compatible"] as const)("%s", (kind) => {
    it.each(FAILURES)("%s", (_, err, overrides) => {
      const failure = explainFailure(err, config(kind, overrides));
      expect(translated(failure.message), failure.message).toBe(true);
    });

    it("no answer in time", () => {
      expect(translated(explainFailure(new CancelledError(), config(kind), 20_000).message)).toBe(true);
    });
  });

  it("a compatible server without a base URL or a model id is told which field to fill", () => {
    const noUrl = explainFailure(new ProviderError("config", "needs a base URL"), config("openai-compatible", { baseUrl: "" }));
    expect(noUrl).toMatchObject({ problem: "url", message: "⟦An OpenAI-compatible server needs a base URL, such as http://localhost:11434/v1.⟧" });
    const noModel = explainFailure(new ProviderError("config", "needs a model id"), config("openai-compatible", { model: "" }));
    expect(noModel).toMatchObject({ problem: "model" });
    expect(translated(noModel.message)).toBe(true);
  });

  it("the welcome's provider hints, and the one provider name that is words", () => {
    for (const kind of WELCOME_KINDS) expect(translated(welcomeProviderText(kind).hint)).toBe(true);
    expect(welcomeProviderText("openai-compatible").label).toBe("⟦OpenAI-compatible⟧");
    // Product names stay as they are.
    expect(welcomeProviderText("anthropic").label).toBe("Anthropic");
  });
});

describe("Test connection in English", () => {
  it("names the provider, or the server, in whole sentences", () => {
    useEnglish();
    expect(explainFailure(new ProviderError("auth", "x", 401), config("anthropic")).message).toBe(
      "Anthropic refused the key (HTTP 401). Check that you pasted all of it and that it is an Anthropic key.",
    );
    expect(explainFailure(new ProviderError("auth", "x", 403), config("openai-compatible")).message).toBe("The server refused the key (HTTP 403). Check that you pasted all of it.");
    expect(explainFailure(new ProviderError("rate_limit", "x", 429), config("openai")).message).toBe("The key works, but OpenAI is rate-limiting it right now. Try again in a minute.");
    expect(explainFailure(new ProviderError("stream", "x"), config("openai-compatible")).message).toBe(
      "http://localhost:11434/v1 answered, but not as an OpenAI-compatible API does. Check the base URL.",
    );
    expect(explainFailure(new ProviderError("network", "connect ECONNREFUSED"), config("anthropic", { baseUrl: "http://127.0.0.1:9" })).message).toBe(
      "Nothing is listening at http://127.0.0.1:9. Is the server running, and is the port right?",
    );
  });
});
