// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPTION_DEFAULTS, type SettingsState } from "../../../src/shared/protocol/settings";
import { el } from "./dom";
import { posted, requests, respond } from "./host";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { SettingsApp } from "../../../webview-ui/src/settings/SettingsApp";
import { SettingsModel } from "../../../webview-ui/src/settings/model";

const STATE: SettingsState = {
  profiles: [
    { name: "default", kind: "openai", baseUrl: "", model: "gpt-5", protocol: "xml", source: "legacy", hasKey: false },
    { name: "Local", kind: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen", protocol: "xml", source: "settings", hasKey: true },
  ],
  active: "default",
  modes: [],
  autoApprove: { words: ["read"], enabled: true, allowed: [], denied: [], refuseDenied: false, maxRequests: 0, maxCost: 0, workspaceFields: [] },
  options: { ...OPTION_DEFAULTS, workspaceFields: [] },
  errors: [],
  hasWorkspace: true,
  codeIndex: { enabled: true, state: "off" },
  rules: { files: [], globalDir: "" },
  skills: { skills: [], errors: [], globalDir: "" },
  imports: [],
};

describe("settings: deleting a profile", () => {
  beforeEach(() => {
    posted.length = 0;
    const model = new SettingsModel();
    model.apply({ type: "settings/state", state: STATE });
    render(h(SettingsApp, { model }));
  });
  afterEach(cleanup);

  it("asks in the page (webviews block window.confirm); Delete sends the deletion", () => {
    fireEvent.click(screen.getByTestId("delete-profile"));
    expect(el(screen.getByTestId("confirm-delete")).textContent).toContain("Delete profile Local and its key?");
    expect(posted).toEqual([]);
    fireEvent.click(within(screen.getByTestId("confirm-delete")).getByRole("button", { name: "Delete" }));
    expect(posted).toEqual([{ type: "request", id: expect.any(Number), method: "settings/deleteProfile", params: { name: "Local" } }]);
    expect(screen.queryByTestId("confirm-delete")).toBeNull();
  });

  it("Keep it sends nothing; the default profile has no Delete", () => {
    expect(screen.getAllByTestId("delete-profile")).toHaveLength(1);
    fireEvent.click(screen.getByTestId("delete-profile"));
    fireEvent.click(within(screen.getByTestId("confirm-delete")).getByRole("button", { name: "Keep it" }));
    expect(posted).toEqual([]);
    expect(screen.queryByTestId("confirm-delete")).toBeNull();
  });
});

describe("settings: a profile's own auto-condense threshold", () => {
  beforeEach(() => {
    posted.length = 0;
    const model = new SettingsModel();
    model.apply({ type: "settings/state", state: STATE });
    render(h(SettingsApp, { model }));
  });
  afterEach(cleanup);

  const editLocal = () => fireEvent.click(within(screen.getAllByTestId("profile").find((p) => el(p).dataset.name === "Local")!).getByRole("button", { name: "Edit" }));

  it("is saved with the profile as a number, and refused in the page when out of 0-100", () => {
    editLocal();
    fireEvent.change(screen.getByTestId("field-autoCondensePercent"), { target: { value: "150" } });
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(el(screen.getByTestId("error-autoCondensePercent")).textContent).toBe("auto-condense must be a whole number from 0 to 100");
    expect(posted).toEqual([]);
    fireEvent.change(screen.getByTestId("field-autoCondensePercent"), { target: { value: "60" } });
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(posted).toEqual([
      expect.objectContaining({
        type: "request",
        method: "settings/saveProfile",
        params: expect.objectContaining({ original: "Local", profile: expect.objectContaining({ autoCondensePercent: 60 }) }),
      }),
    ]);
  });

  it("is not offered for the default profile, whose threshold is the setting", () => {
    fireEvent.click(within(screen.getAllByTestId("profile").find((p) => el(p).dataset.name === "default")!).getByRole("button", { name: "Edit" }));
    expect(screen.queryByTestId("field-autoCondensePercent")).toBeNull();
  });
});

describe("settings: choosing a provider", () => {
  beforeEach(() => {
    posted.length = 0;
    const model = new SettingsModel();
    model.apply({ type: "settings/state", state: STATE });
    render(h(SettingsApp, { model }));
    fireEvent.click(screen.getByTestId("add-profile"));
  });
  afterEach(cleanup);

  const kind = () => screen.getByTestId("field-kind") as unknown as { value: string; querySelectorAll(s: string): ArrayLike<{ label: string; value: string; textContent: string | null }> };
  const placeholder = (testId: string) => el(screen.getByTestId(testId)).getAttribute("placeholder");

  it("lists every provider by its product name, in groups: vendors, OpenAI-compatible vendors, local", () => {
    const groups = Array.from(kind().querySelectorAll("optgroup")).map((g) => g.label);
    expect(groups).toEqual(["Providers", "OpenAI-compatible vendors", "Local and self-hosted"]);
    const names = Array.from(kind().querySelectorAll("option")).map((o) => o.textContent);
    expect(names).toEqual(expect.arrayContaining(["Anthropic", "OpenRouter", "Amazon Bedrock", "DeepSeek", "Z.ai", "Ollama", "LM Studio", "OpenAI-compatible (any URL)"]));
  });

  it("says what an empty URL and model mean for the chosen provider", () => {
    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "deepseek" } });
    expect(placeholder("field-baseUrl")).toBe("empty: https://api.deepseek.com/v1");
    expect(placeholder("field-model")).toBe("empty: deepseek-chat");
    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "ollama" } });
    expect(placeholder("field-baseUrl")).toBe("empty: http://localhost:11434");
    expect(placeholder("field-model")).toBe("required: the model id the server uses");
    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "azure" } });
    expect(placeholder("field-baseUrl")).toBe("https://NAME.openai.azure.com");
    expect(placeholder("field-model")).toBe("the deployment's name");
  });

  it("shows Bedrock's region and AWS profile and saves them; another provider takes none of them along", () => {
    fireEvent.change(screen.getByTestId("field-name"), { target: { value: "AWS" } });
    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "bedrock" } });
    expect(screen.queryByTestId("field-project")).toBeNull();
    fireEvent.change(screen.getByTestId("field-region"), { target: { value: "eu-central-1" } });
    fireEvent.change(screen.getByTestId("field-awsProfile"), { target: { value: "work" } });
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(posted.at(-1)).toMatchObject({ method: "settings/saveProfile", params: { profile: { kind: "bedrock", region: "eu-central-1", awsProfile: "work" } } });

    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "anthropic" } });
    expect(screen.queryByTestId("field-region")).toBeNull();
    fireEvent.click(screen.getByTestId("save-profile"));
    const sent = (posted.at(-1) as { params: { profile: Record<string, unknown> } }).params.profile;
    expect(sent.kind).toBe("anthropic");
    expect(sent).not.toHaveProperty("region");
    expect(sent).not.toHaveProperty("awsProfile");
  });
});

describe("settings: reasoning in the profile editor", () => {
  beforeEach(() => {
    posted.length = 0;
    const model = new SettingsModel();
    model.apply({ type: "settings/state", state: STATE });
    render(h(SettingsApp, { model }));
    fireEvent.click(within(screen.getAllByTestId("profile").find((p) => el(p).dataset.name === "default")!).getByRole("button", { name: "Edit" }));
  });
  afterEach(cleanup);

  const sentProfile = () => (posted.at(-1) as { params: { profile: Record<string, unknown> } }).params.profile;

  it("saves an effort, or a budget once it is a number of tokens in range, and never both", () => {
    fireEvent.change(screen.getByTestId("field-reasoning"), { target: { value: "high" } });
    expect(screen.queryByTestId("field-thinkingBudget")).toBeNull();
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(sentProfile()).toMatchObject({ kind: "openai", reasoningEffort: "high" });
    expect(sentProfile()).not.toHaveProperty("thinkingBudget");

    posted.length = 0;
    fireEvent.change(screen.getByTestId("field-reasoning"), { target: { value: "budget" } });
    fireEvent.change(screen.getByTestId("field-thinkingBudget"), { target: { value: "500" } });
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(posted).toEqual([]);
    expect(el(screen.getByTestId("error-thinkingBudget")).textContent).toContain("1024 to 200000");

    fireEvent.change(screen.getByTestId("field-thinkingBudget"), { target: { value: "16000" } });
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(sentProfile()).toMatchObject({ thinkingBudget: 16_000 });
    expect(sentProfile()).not.toHaveProperty("reasoningEffort");
  });

  it("says what the provider makes of it, and is not offered where the vendor takes no setting", () => {
    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "anthropic" } });
    fireEvent.change(screen.getByTestId("field-reasoning"), { target: { value: "medium" } });
    expect(el(screen.getByTestId("profile-editor")).textContent).toContain("8,192");
    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "deepseek" } });
    expect(screen.queryByTestId("field-reasoning")).toBeNull();
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(sentProfile()).not.toHaveProperty("reasoningEffort");
  });
});

describe("settings: the model picker", () => {
  const ROWS = [
    { id: "anthropic/claude-sonnet-4.5", name: "Anthropic: Claude Sonnet 4.5", contextWindow: 1_000_000, maxOutputTokens: 64_000, inputPrice: 3, outputPrice: 15, tools: true, vision: true },
    { id: "qwen/qwen3-coder:free", name: "Qwen: Qwen3 Coder (free)", contextWindow: 262_144, inputPrice: 0, outputPrice: 0, tools: true, vision: false },
    { id: "mystery/model", tools: false, vision: false },
  ];

  beforeEach(() => {
    posted.length = 0;
    const model = new SettingsModel();
    model.apply({ type: "settings/state", state: STATE });
    render(h(SettingsApp, { model }));
    fireEvent.click(within(screen.getAllByTestId("profile").find((p) => el(p).dataset.name === "Local")!).getByRole("button", { name: "Edit" }));
  });
  afterEach(cleanup);

  it("asks for the list of the provider the form is set to, with the profile's name for its key", async () => {
    fireEvent.change(screen.getByTestId("field-kind"), { target: { value: "openrouter" } });
    fireEvent.change(screen.getByTestId("field-baseUrl"), { target: { value: "http://127.0.0.1:9/v1" } });
    fireEvent.click(screen.getByTestId("browse-models"));
    const [asked] = requests("settings/listModels");
    expect(asked!.params).toMatchObject({ original: "Local", profile: { kind: "openrouter", baseUrl: "http://127.0.0.1:9/v1" } });
    expect(el(screen.getByTestId("model-picker")).textContent).toContain("Asking the provider for its models…");
    await act(() => respond(asked!, { result: { models: ROWS, source: "live" } }));
    const options = screen.getAllByTestId("model-option");
    expect(options.map((o) => el(o).dataset.model)).toEqual(ROWS.map((r) => r.id));
    expect(el(options[0]!).textContent).toContain("Anthropic: Claude Sonnet 4.5");
    expect(el(options[0]!).textContent).toContain("1M");
    expect(el(options[0]!).textContent).toContain("$3.00 / $15.00");
    expect(el(options[1]!).textContent).toContain("free / free");
    expect(el(options[2]!).textContent).toContain("? / ?");
  });

  it("narrows the list as the user types, and a pick fills the model field", async () => {
    fireEvent.click(screen.getByTestId("browse-models"));
    await act(() => respond(requests("settings/listModels")[0]!, { result: { models: ROWS, source: "live" } }));
    fireEvent.change(screen.getByTestId("model-search"), { target: { value: "qwen coder" } });
    expect(screen.getAllByTestId("model-option").map((o) => el(o).dataset.model)).toEqual(["qwen/qwen3-coder:free"]);
    expect(el(screen.getByTestId("models-count")).textContent).toBe("1 of 3 models match");
    fireEvent.click(screen.getByTestId("model-option"));
    expect((screen.getByTestId("field-model") as unknown as { value: string }).value).toBe("qwen/qwen3-coder:free");
    expect(screen.queryByTestId("model-picker")).toBeNull();
  });

  it("shows the host's reason when the provider cannot be asked", async () => {
    fireEvent.click(screen.getByTestId("browse-models"));
    await act(() => respond(requests("settings/listModels")[0]!, { error: { message: "OpenRouter refused the key (HTTP 401).", field: "model" } }));
    expect(el(screen.getByTestId("models-error")).textContent).toBe("OpenRouter refused the key (HTTP 401).");
  });
});
