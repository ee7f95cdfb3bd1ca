import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../../src/core/agent/retry";
import { Task } from "../../src/core/agent/Task";
import { createProvider } from "../../src/core/llm/createProvider";
import type { LlmImage, ProviderKind } from "../../src/core/llm/types";
import { silentLogger } from "../fixtures/silentLogger";
import { FakeModelServer } from "../fixtures/fakeModelServer";

// A 1x1 PNG: the smallest real image an API would take.
const PIXEL: LlmImage = { mediaType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" };

let server: FakeModelServer;
beforeAll(async () => {
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

function makeTask(kind: ProviderKind, supportsImages: boolean) {
  return new Task({
    getProvider: async () => createProvider({ kind, baseUrl: kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl, model: "fake-vision", apiKey: "k" }),
    logger: silentLogger,
    retry: { ...DEFAULT_RETRY, maxRetries: 0 },
    modelOverrides: () => ({ supportsImages }),
  });
}

describe("images the user attaches to a message", () => {
  it("reach an OpenAI-protocol model as image_url parts after the text", async () => {
    const task = makeTask("openai", true);
    server.enqueue({ text: "A single pixel." });
    await task.send("What is this?", [PIXEL]);
    const last = (server.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).at(-1)!;
    expect(last).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL.data}` } },
      ],
    });
    expect(task.snapshot()[0]).toEqual({ id: expect.any(String), role: "user", text: "What is this?", images: [`data:image/png;base64,${PIXEL.data}`] });
  });

  it("reach an Anthropic model as base64 image blocks; a message of images alone has no empty text block", async () => {
    const task = makeTask("anthropic", true);
    server.enqueue({ text: "Two pixels." });
    await task.send("", [PIXEL, { ...PIXEL, mediaType: "image/png" }]);
    const last = (server.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).at(-1)!;
    expect(last).toEqual({
      role: "user",
      content: [
        { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL.data } },
        // The newest user turn's last block carries the prompt-cache mark.
        { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL.data }, cache_control: { type: "ephemeral" } },
      ],
    });
  });

  it("are not sent to a model that does not take them, and the chat says so; the text still goes", async () => {
    const task = makeTask("openai", false);
    server.enqueue({ text: "Text only." });
    await task.send("Describe the screenshot", [PIXEL]);
    const last = (server.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).at(-1)!;
    expect(last).toEqual({ role: "user", content: "Describe the screenshot" });
    const items = task.snapshot();
    expect(items[0]).toEqual({ id: expect.any(String), role: "user", text: "Describe the screenshot" });
    expect(items[1]).toMatchObject({ role: "error", error: { message: "fake-vision does not take images, so the image was not sent; pick a vision model to send images.", retryable: false } });
  });
});
