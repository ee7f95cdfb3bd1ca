// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { McpRequestItem } from "../../../src/shared/protocol/mcpRequests";
import { parseWebviewMessage } from "../../../src/shared/protocol/messages";
import { el, texts } from "./dom";
import { posted } from "./host";
import { Message } from "./ui";

function show(item: McpRequestItem) {
  return render(h(Message, { item, busy: true, last: false }));
}

const form: McpRequestItem = {
  id: "mcp-1",
  role: "mcpRequest",
  server: "signup",
  status: "waiting",
  request: {
    kind: "elicitation",
    message: "Tell us about you",
    fields: [
      { kind: "text", name: "name", title: "Name", required: true, description: "Your full name" },
      { kind: "number", name: "age", integer: true, minimum: 0, required: false },
      { kind: "boolean", name: "agree", title: "I agree", required: false },
      {
        kind: "select",
        name: "color",
        title: "Colour",
        required: true,
        options: [
          { value: "r", label: "Red" },
          { value: "g", label: "Green" },
        ],
      },
      {
        kind: "multiselect",
        name: "tools",
        title: "Instruments",
        required: false,
        options: [
          { value: "guitar", label: "Guitar" },
          { value: "piano", label: "Piano" },
        ],
      },
    ],
  },
};

const field = (name: string) => screen.getByTestId(`mcp-field-${name}`);

beforeEach(() => {
  posted.length = 0;
});
afterEach(cleanup);

describe("an MCP server's form in the chat", () => {
  it("shows the server's message and a labelled control per field, required ones marked", () => {
    show(form);
    const card = screen.getByTestId("mcp-request");
    expect(el(card).querySelector(".tool-title")?.textContent).toBe("Form from signup waiting");
    expect(within(card).getByText("Tell us about you")).toBeTruthy();
    expect(screen.getByLabelText("Name *")).toBe(field("name"));
    expect(el(field("name")).getAttribute("aria-required")).toBe("true");
    expect(el(field("age")).getAttribute("type")).toBe("number");
    expect(el(field("agree")).getAttribute("type")).toBe("checkbox");
    expect(texts(field("color"), "option")).toEqual(["Choose…", "Red", "Green"]);
    expect(texts(field("tools"), "label")).toEqual([" Guitar", " Piano"]);
  });

  it("does not submit until the required fields are filled, and says which are missing", () => {
    show(form);
    fireEvent.click(screen.getByTestId("mcp-submit"));
    expect(texts(screen.getByTestId("mcp-form-errors"), "li")).toEqual(['"Name" is required', '"Colour" is required']);
    expect(posted).toEqual([]);
  });

  it("submits the values typed as the server asked: numbers as numbers, yes/no as booleans, choices as lists", () => {
    show(form);
    fireEvent.change(field("name"), { target: { value: "Ada" } });
    fireEvent.change(field("age"), { target: { value: "36" } });
    fireEvent.click(field("agree"));
    fireEvent.change(field("color"), { target: { value: "g" } });
    fireEvent.click(within(field("tools")).getByLabelText("Piano"));
    fireEvent.click(screen.getByTestId("mcp-submit"));
    expect(screen.queryByTestId("mcp-form-errors")).toBeNull();
    expect(posted).toEqual([{ type: "chat/mcpAnswer", id: "mcp-1", answer: { kind: "elicitation", action: "accept", content: { name: "Ada", age: 36, agree: true, color: "g", tools: ["piano"] } } }]);
    // What the page sends is what the host accepts.
    expect(parseWebviewMessage(posted[0]).ok).toBe(true);
  });

  it("a number out of range is named, not sent", () => {
    show(form);
    fireEvent.change(field("name"), { target: { value: "Ada" } });
    fireEvent.change(field("color"), { target: { value: "r" } });
    fireEvent.change(field("age"), { target: { value: "-1" } });
    fireEvent.click(screen.getByTestId("mcp-submit"));
    expect(texts(screen.getByTestId("mcp-form-errors"), "li")).toEqual(['"age" must be at least 0']);
    expect(posted).toEqual([]);
  });

  it("Decline and Cancel answer without the values", () => {
    show(form);
    fireEvent.click(screen.getByTestId("mcp-decline"));
    fireEvent.click(screen.getByTestId("mcp-cancel"));
    expect(posted).toEqual([
      { type: "chat/mcpAnswer", id: "mcp-1", answer: { kind: "elicitation", action: "decline" } },
      { type: "chat/mcpAnswer", id: "mcp-1", answer: { kind: "elicitation", action: "cancel" } },
    ]);
  });

  it("once answered, the form is gone and what was sent shows", () => {
    show({ ...form, status: "answered", result: "name: Ada\ncolor: g" });
    expect(screen.queryByTestId("mcp-form")).toBeNull();
    expect(el(screen.getByTestId("mcp-request-status")).textContent).toBe("answered");
    expect(el(screen.getByTestId("mcp-request-result")).textContent).toContain("name: Ada");
  });
});

describe("an MCP server's sampling request in the chat", () => {
  const sampling: McpRequestItem = {
    id: "mcp-2",
    role: "mcpRequest",
    server: "everything",
    status: "waiting",
    request: { kind: "sampling", systemPrompt: "You are a helpful test server.", messages: [{ role: "user", text: "What is 2+2?" }], maxTokens: 100 },
  };

  it("shows the prompt, the system prompt and the token cap, with Approve focused for the keyboard", () => {
    show(sampling);
    const card = screen.getByTestId("mcp-request");
    expect(el(card).textContent).toContain("everything asks to run this prompt through your model (at most 100 tokens).");
    expect(texts(card, "[data-testid=mcp-sampling-message] pre")).toEqual(["You are a helpful test server.", "What is 2+2?"]);
    expect(el(screen.getByTestId("mcp-approve")).ownerDocument.activeElement).toBe(screen.getByTestId("mcp-approve"));
    fireEvent.click(screen.getByTestId("mcp-approve"));
    fireEvent.click(screen.getByTestId("mcp-reject"));
    expect(posted).toEqual([
      { type: "chat/mcpAnswer", id: "mcp-2", answer: { kind: "sampling", approved: true } },
      { type: "chat/mcpAnswer", id: "mcp-2", answer: { kind: "sampling", approved: false } },
    ]);
  });

  it("once answered shows the model's answer and no buttons", () => {
    show({ ...sampling, status: "answered", result: "Four." });
    expect(screen.queryByTestId("mcp-approve")).toBeNull();
    expect(el(screen.getByTestId("mcp-request-result")).textContent).toBe("The model's answerFour.");
  });
});
