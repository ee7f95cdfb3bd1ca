// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPTION_DEFAULTS, type AutoApproveView, type ModeView, type OptionsView, type SettingsState } from "../../../src/shared/protocol/settings";
import { el } from "./dom";
import { answer, posted, sentAs } from "./host";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { SettingsApp } from "../../../webview-ui/src/settings/SettingsApp";
import { SettingsModel } from "../../../webview-ui/src/settings/model";

const APPROVE: AutoApproveView = { words: [], enabled: true, allowed: [], denied: [], refuseDenied: false, maxRequests: 0, maxCost: 0, workspaceFields: [] };
const mode = (slug: string, name: string): ModeView => ({ slug, name, source: "built-in", scope: "built-in", overridesBuiltIn: false, roleDefinition: "", groups: [] });
const MODES = [mode("code", "Code"), mode("architect", "Architect"), mode("ask", "Ask")];

function state(options: Partial<OptionsView> = {}): SettingsState {
  return {
    profiles: [],
    active: "default",
    modes: MODES,
    autoApprove: APPROVE,
    options: { ...OPTION_DEFAULTS, workspaceFields: [], ...options },
    rules: { files: [], globalDir: "" },
    skills: { skills: [], errors: [], globalDir: "" },
    imports: [],
    errors: [],
    hasWorkspace: true,
    codeIndex: { enabled: true, state: "off" },
  };
}

function show(options: Partial<OptionsView> = {}) {
  const model = new SettingsModel();
  model.apply({ type: "settings/state", state: state(options) });
  render(h(SettingsApp, { model }));
  return { model, section: screen.getByTestId("options-section") };
}

const sent = () => sentAs("settings/setOptions");
const value = (node: unknown) => (node as { value: string }).value;
const checked = (node: unknown) => (node as { checked: boolean }).checked;
const disabled = (node: unknown) => (node as { disabled: boolean }).disabled;
const box = (label: RegExp) => within(screen.getByTestId("options-section")).getByLabelText(label);
const save = () => fireEvent.click(screen.getByText("Save limits and tools"));

describe("settings: limits and tools section", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows the current values in labelled controls", () => {
    show({ mode: "architect", maxRequests: 40, readFileMaxLines: 3, browserPath: "/usr/bin/chromium", requireTodosDone: true });
    const select = box(/Default mode of new tasks/);
    expect(value(select)).toBe("architect");
    expect([...el(select).querySelectorAll("option")].map((o) => o.textContent)).toEqual(["Code (code)", "Architect (architect)", "Ask (ask)"]);
    expect(value(box(/Max model requests per task/))).toBe("40");
    expect(value(box(/Automatic retries/))).toBe("3");
    expect(value(box(/Lines read_file shows per file/))).toBe("3");
    expect(value(box(/Characters of a tool result/))).toBe("50000");
    expect(value(box(/Characters of command output/))).toBe("10000");
    expect(value(box(/apply_diff match threshold/))).toBe("1");
    expect(value(box(/Browser executable/))).toBe("/usr/bin/chromium");
    expect(checked(box(/Refuse attempt_completion/))).toBe(true);
    // Nothing edited yet: nothing to save.
    expect(disabled(screen.getByText("Save limits and tools"))).toBe(true);
  });

  it("the mode and the todo switch are saved as soon as they change", () => {
    show();
    fireEvent.change(box(/Default mode of new tasks/), { target: { value: "ask" } });
    fireEvent.click(box(/Refuse attempt_completion/));
    expect(sent().map((m) => m.changes)).toEqual([{ mode: "ask" }, { requireTodosDone: true }]);
  });

  it("Save sends only the edited boxes, as numbers, with the path trimmed", () => {
    show();
    fireEvent.change(box(/Lines read_file shows per file/), { target: { value: " 3 " } });
    fireEvent.change(box(/Characters of command output/), { target: { value: "4000" } });
    fireEvent.change(box(/apply_diff match threshold/), { target: { value: "0.9" } });
    fireEvent.change(box(/Browser executable/), { target: { value: "  /opt/chrome  " } });
    save();
    expect(sent().map((m) => m.changes)).toEqual([{ readFileMaxLines: 3, outputMaxChars: 4000, fuzzyThreshold: 0.9, browserPath: "/opt/chrome" }]);
  });

  it("the context and budget settings are here too, saved as numbers; a percent over 100 is refused", () => {
    show();
    fireEvent.change(box(/Condense the conversation at this %/), { target: { value: "120" } });
    save();
    expect(el(screen.getByTestId("options-error-autoCondensePercent")).textContent).toMatch(/must be a whole number from 0 to 100$/);
    expect(sent()).toEqual([]);
    fireEvent.change(box(/Condense the conversation at this %/), { target: { value: "75" } });
    fireEvent.change(box(/Cost in USD/), { target: { value: "2.5" } });
    fireEvent.change(box(/Input tokens of one request/), { target: { value: "40000" } });
    save();
    expect(sent().map((m) => m.changes)).toEqual([{ autoCondensePercent: 75, budgetMaxCost: 2.5, budgetMaxInputTokens: 40000 }]);
  });

  it("refuses a bad value in the page, under its box, and sends nothing", () => {
    show();
    fireEvent.change(box(/Max model requests per task/), { target: { value: "0" } });
    fireEvent.change(box(/Lines read_file shows per file/), { target: { value: "20" } });
    save();
    expect(el(screen.getByTestId("options-error-maxRequests")).textContent).toBe("Max model requests per task must be a whole number, 1 or more");
    fireEvent.change(box(/Max model requests per task/), { target: { value: "10" } });
    fireEvent.change(box(/Automatic retries/), { target: { value: "2.5" } });
    save();
    expect(el(screen.getByTestId("options-error-retries")).textContent).toMatch(/must be a whole number from 0 to 10$/);
    fireEvent.change(box(/Automatic retries/), { target: { value: "" } });
    save();
    expect(el(screen.getByTestId("options-error-retries")).textContent).toMatch(/must be a whole number from 0 to 10$/);
    fireEvent.change(box(/Automatic retries/), { target: { value: "3" } });
    fireEvent.change(box(/apply_diff match threshold/), { target: { value: "0.5" } });
    save();
    expect(el(screen.getByTestId("options-error-fuzzyThreshold")).textContent).toMatch(/must be a number from 0\.8 to 1$/);
    expect(sent()).toEqual([]);
  });

  it("shows the host's refusal under the field it names", async () => {
    show();
    fireEvent.change(box(/Characters of a tool result/), { target: { value: "2000" } });
    save();
    await act(() => answer(sent()[0]!, { ok: false, field: "toolResultMaxChars", message: "kiln.context.toolResultMaxChars is refused" }));
    expect(el(screen.getByTestId("options-error-toolResultMaxChars")).textContent).toBe("kiln.context.toolResultMaxChars is refused");
    // The edit stays in its box, to be fixed.
    expect(value(box(/Characters of a tool result/))).toBe("2000");
  });

  it("follows changes made elsewhere and marks the settings set for the workspace", () => {
    const { model } = show();
    fireEvent.change(box(/Characters of command output/), { target: { value: "1234" } });
    // A state with the same values (after another request on the page) keeps the edit.
    act(() => model.apply({ type: "settings/state", state: state() }));
    expect(value(box(/Characters of command output/))).toBe("1234");
    act(() => model.apply({ type: "settings/state", state: state({ outputMaxChars: 20000, readFileMaxLines: 50, mode: "ask", workspaceFields: ["readFileMaxLines", "mode"] }) }));
    expect(value(box(/Characters of command output/))).toBe("20000");
    expect(value(box(/Lines read_file shows per file/))).toBe("50");
    expect(value(box(/Default mode of new tasks/))).toBe("ask");
    expect(el(screen.getByTestId("options-workspace")).textContent).toBe("Set for this workspace (changes are saved there): kiln.context.readFileMaxLines, kiln.mode");
    expect(el(box(/^Lines read_file shows per file \(workspace\)$/)).getAttribute("data-testid")).toBe("options-readFileMaxLines");
    expect(el(box(/^Default mode of new tasks \(workspace\)/)).getAttribute("data-testid")).toBe("options-mode");
    expect(within(screen.getByTestId("options-section")).queryByLabelText(/Characters of command output.*\(workspace\)/)).toBeNull();
  });
});
