// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatError } from "../../../src/shared/protocol/chat";
import { parseWebviewMessage } from "../../../src/shared/protocol/messages";
import { el } from "./dom";
import { posted } from "./host";
import { Message } from "./ui";

function errorCard(error: ChatError, busy = false) {
  render(h(Message, { item: { id: "e1", role: "error", error }, busy, last: true }));
  return [...el(screen.getByTestId("message-error")).querySelectorAll("button")].map((b) => b.textContent);
}

describe("an error's buttons fix what it names", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("no key: Set API key and Open settings, which the host accepts", () => {
    expect(errorCard({ kind: "no_key", message: "No API key is set for anthropic.", retryable: false })).toEqual(["Set API key", "Open settings"]);
    fireEvent.click(screen.getByTestId("set-api-key"));
    fireEvent.click(screen.getByTestId("open-settings"));
    expect(posted).toEqual([{ type: "chat/setApiKey" }, { type: "chat/openSettings" }]);
    expect(posted.map((m) => parseWebviewMessage(m).ok)).toEqual([true, true]);
  });

  it("a refused key: the fix first, Retry after it", () => {
    expect(errorCard({ kind: "auth", message: "Anthropic rejected the API key (HTTP 401).", retryable: true })).toEqual(["Set API key", "Open settings", "Retry"]);
  });

  it("while the task is busy Set API key waits; other errors have none of these", () => {
    errorCard({ kind: "no_key", message: "No key.", retryable: false }, true);
    expect(el(screen.getByTestId("set-api-key")).hasAttribute("disabled")).toBe(true);
    cleanup();
    expect(errorCard({ kind: "rate_limit", message: "Slow down.", retryable: true })).toEqual(["Retry"]);
  });
});
