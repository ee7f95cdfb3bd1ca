// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { welcomeNeeds, type WelcomeInfo } from "../../../src/shared/protocol/welcome";
import { el } from "./dom";
import { posted, requests, respond } from "./host";
import { App, ChatStore } from "./ui";

const INFO: WelcomeInfo = {
  providers: [
    { kind: "anthropic", label: "Anthropic", hint: "Claude models", envVar: "ANTHROPIC_API_KEY", envKey: true, storedKey: false, defaultModel: "claude-sonnet-5-5", ...welcomeNeeds("anthropic") },
    { kind: "openai", label: "OpenAI", hint: "GPT models", envVar: "OPENAI_API_KEY", envKey: false, storedKey: false, defaultModel: "gpt-4.1", ...welcomeNeeds("openai") },
    { kind: "ollama", label: "Ollama", hint: "Models on your machine", envVar: "OLLAMA_API_KEY", envKey: false, storedKey: false, defaultModel: "", ...welcomeNeeds("ollama") },
    { kind: "openai-compatible", label: "OpenAI-compatible", hint: "Any server", envVar: "KILN_API_KEY", envKey: false, storedKey: false, defaultModel: "", ...welcomeNeeds("openai-compatible") },
    { kind: "deepseek", label: "DeepSeek", hint: "With a DeepSeek API key", envVar: "DEEPSEEK_API_KEY", envKey: false, storedKey: false, defaultModel: "deepseek-chat", ...welcomeNeeds("deepseek") },
  ],
  current: { kind: "openai", baseUrl: "", model: "" },
};

function open(info: WelcomeInfo = INFO) {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  act(() => store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "openai", model: "gpt-4.1" }, welcome: info }));
  return store;
}

function type(testId: string, value: string): void {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

describe("the first-run welcome", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows instead of the chat: the main providers as cards, the rest in one list, the settings' one picked, no chat input", () => {
    open();
    expect(screen.getByRole("heading", { name: "Welcome to Kiln" })).toBeTruthy();
    expect(el(screen.getByTestId("chat-view")).hasAttribute("hidden")).toBe(true);
    const picked = screen.getAllByRole("radio").filter((radio) => (radio as unknown as { checked: boolean }).checked);
    expect(picked.map((radio) => el(radio).getAttribute("value"))).toEqual(["openai"]);
    expect(screen.getAllByRole("radio").length).toBe(4);
    const others = Array.from((screen.getByTestId("welcome-other") as unknown as { options: ArrayLike<{ textContent: string | null }> }).options).map((o) => o.textContent);
    expect(others).toEqual(["OpenAI-compatible", "DeepSeek"]);
    // No key for OpenAI yet: the list waits for one, and nothing was asked.
    expect(el(screen.getByTestId("welcome-models-status")).textContent).toBe("The list loads once the key is in.");
    expect(requests("welcome/models")).toEqual([]);
  });

  it("says a key was found in the environment and loads that provider's models at once", async () => {
    open();
    fireEvent.click(screen.getByRole("radio", { name: /^Anthropic/ }));
    expect(el(screen.getByTestId("welcome-key-found")).textContent).toContain("Found ANTHROPIC_API_KEY in the environment.");
    const [asked] = requests("welcome/models");
    expect(asked!.params).toEqual({ kind: "anthropic", baseUrl: "", model: "claude-sonnet-5-5", key: "" });
    await act(() => respond(asked!, { result: { ok: true, models: ["claude-haiku-5", "claude-sonnet-5-5"] } }));
    const select = screen.getByTestId("welcome-model") as unknown as { tagName: string; value: string };
    expect(select.tagName).toBe("SELECT");
    expect(select.value).toBe("claude-sonnet-5-5");
    expect(el(screen.getByTestId("welcome-models-status")).textContent).toBe("2 models listed.");
  });

  it("Test connection sends the form; a refused key outlines the key field and says why", async () => {
    open();
    type("welcome-key", "sk-typo");
    fireEvent.click(screen.getByTestId("welcome-test"));
    const [asked] = requests("welcome/test");
    expect(asked!.params).toEqual({ kind: "openai", baseUrl: "", model: "gpt-4.1", key: "sk-typo" });
    expect(el(screen.getByTestId("welcome-result")).textContent).toBe("Sending one tiny request…");
    await act(() => respond(asked!, { result: { ok: false, problem: "key", message: "OpenAI refused the key (HTTP 401).", detail: "Incorrect API key provided" } }));
    expect(el(screen.getByTestId("welcome-result")).textContent).toContain("OpenAI refused the key (HTTP 401).");
    expect(el(screen.getByTestId("welcome-key")).getAttribute("aria-invalid")).toBe("true");
    expect(el(screen.getByTestId("welcome-model")).getAttribute("aria-invalid")).toBeNull();
    // Typing again clears the verdict: it was about the old key.
    type("welcome-key", "sk-right");
    expect(el(screen.getByTestId("welcome-result")).textContent).toBe("");
    expect(el(screen.getByTestId("welcome-key")).getAttribute("aria-invalid")).toBeNull();
  });

  it("a working connection names the model and the time it took", async () => {
    open();
    type("welcome-key", "sk-right");
    fireEvent.click(screen.getByTestId("welcome-test"));
    await act(() => respond(requests("welcome/test")[0]!, { result: { ok: true, model: "gpt-4.1", ms: 420 } }));
    expect(el(screen.getByTestId("welcome-result")).textContent).toBe(" Connected: gpt-4.1 answered in 420 ms.");
  });

  it("an OpenAI-compatible server, from the other providers, asks for its URL, and its models once the URL is in", async () => {
    open();
    fireEvent.change(screen.getByTestId("welcome-other"), { target: { value: "openai-compatible" } });
    expect(el(screen.getByTestId("welcome-models-status")).textContent).toBe("The list loads once the URL is in.");
    expect(requests("welcome/models")).toEqual([]);
    type("welcome-baseUrl", "http://localhost:11434/v1");
    fireEvent.blur(screen.getByTestId("welcome-baseUrl"));
    const [asked] = requests("welcome/models");
    expect(asked!.params).toMatchObject({ kind: "openai-compatible", baseUrl: "http://localhost:11434/v1" });
    await act(() => respond(asked!, { result: { ok: false, problem: "other", message: "The server does not list its models; type the model id." } }));
    // Still a text field to type the id into.
    expect((screen.getByTestId("welcome-model") as unknown as { tagName: string }).tagName).toBe("INPUT");
    expect(el(screen.getByTestId("welcome-models-status")).textContent).toBe("The server does not list its models; type the model id.");
  });

  it("a vendor from the other providers is picked there and set up with its key", async () => {
    open();
    fireEvent.change(screen.getByTestId("welcome-other"), { target: { value: "deepseek" } });
    const picked = screen.getAllByRole("radio").filter((radio) => (radio as unknown as { checked: boolean }).checked);
    expect(picked.map((radio) => el(radio).getAttribute("value"))).toEqual(["deepseek"]);
    expect(screen.queryByTestId("welcome-baseUrl")).toBeNull();
    expect(el(screen.getByTestId("welcome-models-status")).textContent).toBe("The list loads once the key is in.");
    type("welcome-key", "sk-ds");
    fireEvent.click(screen.getByTestId("welcome-start"));
    expect(requests("welcome/finish")[0]!.params).toEqual({ kind: "deepseek", baseUrl: "", model: "deepseek-chat", key: "sk-ds" });
  });

  it("sends the cloud providers that need more than a key to the settings' provider section", () => {
    open();
    fireEvent.click(screen.getByTestId("welcome-open-settings"));
    expect(posted.at(-1)).toEqual({ type: "chat/openSettings", section: "providers" });
  });

  it("Ollama needs no key: its models are asked of its default address at once", () => {
    open();
    fireEvent.click(screen.getByRole("radio", { name: /^Ollama/ }));
    expect(screen.getByText("2. API key (if the server needs one)")).toBeTruthy();
    expect(el(screen.getByTestId("welcome-baseUrl")).getAttribute("placeholder")).toBe("http://localhost:11434");
    expect(requests("welcome/models").map((r) => r.params)).toEqual([{ kind: "ollama", baseUrl: "", model: "", key: "" }]);
  });

  it("Start chatting saves through the host; a refusal shows, and the next snapshot brings the chat", async () => {
    const store = open();
    type("welcome-key", "sk-right");
    fireEvent.click(screen.getByTestId("welcome-start"));
    const [first] = requests("welcome/finish");
    expect(first!.params).toEqual({ kind: "openai", baseUrl: "", model: "gpt-4.1", key: "sk-right" });
    await act(() => respond(first!, { error: { message: "that does not look like an API key", field: "key" } }));
    expect(el(screen.getByTestId("welcome-error")).textContent).toBe("that does not look like an API key");
    expect(el(screen.getByTestId("welcome-key")).getAttribute("aria-invalid")).toBe("true");
    fireEvent.click(screen.getByTestId("welcome-start"));
    await act(() => respond(requests("welcome/finish")[1]!, { result: { message: "Kiln uses OpenAI, gpt-4.1." } }));
    act(() => store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "openai", model: "gpt-4.1" } }));
    expect(screen.queryByTestId("welcome")).toBeNull();
    expect(el(screen.getByTestId("chat-view")).hasAttribute("hidden")).toBe(false);
  });

  it("Skip for now asks the host to end the welcome without saving anything", () => {
    open();
    fireEvent.click(screen.getByTestId("welcome-skip"));
    expect(requests("welcome/skip").map((r) => r.params)).toEqual([{}]);
    expect(requests("welcome/finish")).toEqual([]);
  });
});
