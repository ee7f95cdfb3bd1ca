// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { el, texts } from "./dom";
import { posted } from "./host";
import { App, ChatStore } from "./ui";

/** The chat as the user sees it, fed by host messages through the real store. */
function chat({ busy = true, images = false } = {}) {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  const host = (message: Parameters<ChatStore["apply"]>[0]) => act(() => store.apply(message));
  host({ type: "chat/snapshot", items: [], busy, provider: { kind: "openai", model: "m", images }, task: { mode: "code", tokensIn: 0, tokensOut: 0, cacheRead: 0, cacheWrite: 0, todos: [] } });
  // The empty chat asked for the recent tasks; what the input sends comes after.
  expect(posted).toEqual([{ type: "history/open" }]);
  posted.length = 0;
  return host;
}

const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function pngFile(name = "shot.png"): File {
  return new File([Buffer.from(PNG_BASE64, "base64")], name, { type: "image/png" });
}

/** Pastes, then waits for what the input shows for it (FileReader answers on a later turn). */
async function paste(files: File[], shows: "attachments" | "attach-problem" = "attachments") {
  fireEvent.paste(screen.getByTestId("chat-input"), { clipboardData: { files } });
  await screen.findByTestId(shows, {}, { timeout: 5_000 });
}

function type(text: string) {
  const input = screen.getByTestId("chat-input");
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: "Enter" });
}

describe("the chat input while the task is busy", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("sends what the user types (the host queues it), keeps Stop, and says it will queue", () => {
    chat();
    expect(el(screen.getByTestId("chat-input")).getAttribute("placeholder")).toMatch(/queue/i);
    fireEvent.change(screen.getByTestId("chat-input"), { target: { value: "also add docs" } });
    expect(el(screen.getByTestId("send")).textContent).toBe("Queue");
    expect(screen.getByTestId("stop")).toBeTruthy();
    fireEvent.keyDown(screen.getByTestId("chat-input"), { key: "Enter" });
    expect(posted).toEqual([{ type: "chat/send", text: "also add docs" }]);
    expect((screen.getByTestId("chat-input") as unknown as { value: string }).value).toBe("");
  });

  it("lists queued messages with Remove; Send now appears once the task stopped", () => {
    const host = chat();
    type("first");
    host({ type: "chat/queue", messages: ["first", "second"], paused: false });
    const queue = screen.getByTestId("queue");
    expect(texts(queue, ".queued-text")).toEqual(["first", "second"]);
    expect(within(queue).queryAllByTestId("queued-send")).toHaveLength(0);
    posted.length = 0;
    fireEvent.click(within(queue).getAllByTestId("queued-remove")[1]!);
    expect(posted).toEqual([{ type: "chat/unqueue", index: 1, send: false }]);

    host({ type: "chat/busy", busy: false });
    host({ type: "chat/queue", messages: ["first"], paused: true });
    expect(el(screen.getByTestId("queue")).textContent).toMatch(/paused after Stop/);
    posted.length = 0;
    fireEvent.click(screen.getByTestId("queued-send"));
    expect(posted).toEqual([{ type: "chat/unqueue", index: 0, send: true }]);

    host({ type: "chat/queue", messages: [], paused: false });
    expect(screen.queryByTestId("queue")).toBeNull();
  });
});

describe("images in the chat input", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("a pasted image shows as a thumbnail, can be removed, and goes with the message", async () => {
    chat({ busy: false, images: true });
    await paste([pngFile(), pngFile("second.png")]);
    const attachments = screen.getByTestId("attachments");
    expect(el(attachments).querySelectorAll("img").length).toBe(2);
    fireEvent.click(within(attachments).getByLabelText("Remove image 2"));
    type("What is wrong here?");
    expect(posted).toEqual([{ type: "chat/send", text: "What is wrong here?", images: [{ mediaType: "image/png", data: PNG_BASE64 }] }]);
    expect(screen.queryByTestId("attachments")).toBeNull();
  });

  it("an image alone can be sent", async () => {
    chat({ busy: false, images: true });
    await paste([pngFile()]);
    fireEvent.click(screen.getByTestId("send"));
    expect(posted).toEqual([{ type: "chat/send", text: "", images: [{ mediaType: "image/png", data: PNG_BASE64 }] }]);
  });

  it("a model without images says so and attaches nothing; a file that is not an image type is named", async () => {
    chat({ busy: false, images: false });
    await paste([pngFile()], "attach-problem");
    expect(el(screen.getByTestId("attach-problem")).textContent).toBe("m does not take images; pick a vision model to attach them.");
    expect(screen.queryByTestId("attachments")).toBeNull();
    cleanup();
    chat({ busy: false, images: true });
    await paste([new File(["<svg/>"], "logo.svg", { type: "image/svg+xml" })], "attach-problem");
    expect(el(screen.getByTestId("attach-problem")).textContent).toBe("Not attached: logo.svg is not a PNG, JPEG, GIF or WebP image.");
  });
});

describe("keys in the chat input", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("Ctrl+. and Cmd+. ask the host for the next mode; a plain . or Ctrl+Shift+. does not", () => {
    chat({ busy: false });
    const input = screen.getByTestId("chat-input");
    fireEvent.keyDown(input, { key: ".", ctrlKey: true });
    fireEvent.keyDown(input, { key: ".", metaKey: true });
    fireEvent.keyDown(input, { key: ".", ctrlKey: true, shiftKey: true });
    fireEvent.keyDown(input, { key: "." });
    expect(posted).toEqual([{ type: "chat/cycleMode" }, { type: "chat/cycleMode" }]);
  });
});
