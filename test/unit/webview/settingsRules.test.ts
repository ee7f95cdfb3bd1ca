// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPTION_DEFAULTS, type AutoApproveView, type RuleView, type SettingsState } from "../../../src/shared/protocol/settings";
import { el, texts } from "./dom";
import { answer, posted, sentAs } from "./host";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { SettingsApp } from "../../../webview-ui/src/settings/SettingsApp";
import { SettingsModel } from "../../../webview-ui/src/settings/model";

const APPROVE: AutoApproveView = { words: [], enabled: true, allowed: [], denied: [], refuseDenied: false, maxRequests: 0, maxCost: 0, workspaceFields: [] };
const RULES: RuleView[] = [
  { id: "global:rules/lang.md", scope: "global", path: "/home/me/.storage/rules/lang.md", size: 120, enabled: true },
  { id: "project:.kilocode/rules/style.md", scope: "project", path: ".kilocode/rules/style.md", size: 2_500, enabled: true },
  { id: "project:AGENTS.md", scope: "project", path: "AGENTS.md", size: 40, enabled: false },
  { id: "project:.kilocode/rules-code/tests.md", scope: "project", mode: "code", path: ".kilocode/rules-code/tests.md", size: 10, enabled: true },
];

function state(files: RuleView[] = RULES, hasWorkspace = true): SettingsState {
  return {
    profiles: [],
    active: "default",
    modes: [],
    autoApprove: APPROVE,
    options: { ...OPTION_DEFAULTS, workspaceFields: [] },
    rules: { files, globalDir: "/home/me/.storage/rules" },
    skills: { skills: [], errors: [], globalDir: "" },
    imports: [],
    errors: [],
    hasWorkspace,
    codeIndex: { enabled: true, state: "off" },
  };
}

function show(files?: RuleView[], hasWorkspace?: boolean) {
  const model = new SettingsModel();
  model.apply({ type: "settings/state", state: state(files, hasWorkspace) });
  render(h(SettingsApp, { model }));
  return { model, section: within(screen.getByTestId("rules-section")) };
}

const sent = (type: string) => sentAs(type);
const checked = (node: unknown) => (node as { checked: boolean }).checked;
const disabled = (node: unknown) => (node as { disabled: boolean }).disabled;

describe("settings: rules section", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("lists each rule file in prompt order with its scope, mode, size and whether it is on", () => {
    const { section } = show();
    const rows = screen.getAllByTestId("rule");
    expect(rows.map((r) => texts(r, "td").slice(1, 4))).toEqual([
      ["/home/me/.storage/rules/lang.md", "global", "120 B"],
      [".kilocode/rules/style.md", "project", "2.5 KB"],
      ["AGENTS.md", "project", "40 B"],
      [".kilocode/rules-code/tests.md", "project, code mode", "10 B"],
    ]);
    expect(checked(section.getByLabelText("Use AGENTS.md"))).toBe(false);
    expect(checked(section.getByLabelText("Use .kilocode/rules/style.md"))).toBe(true);
    expect(el(screen.getByTestId("rules-section")).textContent).toContain("global rules (/home/me/.storage/rules)");
  });

  it("a switch turns its file off or on, by id; Open asks the host to open that file", () => {
    const { section } = show();
    fireEvent.click(section.getByLabelText("Use .kilocode/rules/style.md"));
    fireEvent.click(section.getByLabelText("Use AGENTS.md"));
    expect(sent("settings/setRuleEnabled").map(({ id, enabled }) => ({ id, enabled }))).toEqual([
      { id: "project:.kilocode/rules/style.md", enabled: false },
      { id: "project:AGENTS.md", enabled: true },
    ]);
    fireEvent.click(section.getByLabelText("Open /home/me/.storage/rules/lang.md"));
    expect(sent("settings/openRule")).toEqual([{ type: "settings/openRule", id: "global:rules/lang.md" }]);
  });

  it("the host's new state shows a switch's new position", () => {
    const { model, section } = show();
    act(() => model.apply({ type: "settings/state", state: state(RULES.map((r) => ({ ...r, enabled: r.id !== "project:.kilocode/rules/style.md" }))) }));
    expect(checked(section.getByLabelText("Use .kilocode/rules/style.md"))).toBe(false);
    expect(checked(section.getByLabelText("Use AGENTS.md"))).toBe(true);
  });

  it("says when there are no rule files", () => {
    show([]);
    expect(el(screen.getByTestId("rules-empty")).textContent).toBe("No rule files yet.");
    expect(screen.queryAllByTestId("rule")).toHaveLength(0);
  });

  it("New rule file sends the name and shows the host's answer", async () => {
    const { section } = show();
    const button = screen.getByTestId("new-rule");
    expect(disabled(button)).toBe(true);
    fireEvent.change(section.getByLabelText(/New rule file in \.kilocode\/rules\//), { target: { value: "testing conventions" } });
    fireEvent.click(button);
    const [request] = sent("settings/newRule");
    expect(request).toMatchObject({ name: "testing conventions" });
    await act(() => answer(request!, { ok: false, field: "ruleName", message: ".kilocode/rules/testing-conventions.md already exists; choose another name or open it from the list" }));
    expect(el(screen.getByTestId("rules-error-ruleName")).textContent).toBe(".kilocode/rules/testing-conventions.md already exists; choose another name or open it from the list");
    fireEvent.click(button);
    const second = sent("settings/newRule")[1]!;
    await act(() => answer(second, { ok: true, message: "Created .kilocode/rules/testing-conventions.md." }));
    expect(screen.queryByTestId("rules-error-ruleName")).toBeNull();
    expect(el(screen.getByTestId("rules-created")).textContent).toBe("Created .kilocode/rules/testing-conventions.md.");
  });

  it("refuses a name with a path separator in the page, with the host's words, and sends nothing", () => {
    const { section } = show();
    fireEvent.change(section.getByLabelText(/New rule file in/), { target: { value: "../escape" } });
    fireEvent.click(screen.getByTestId("new-rule"));
    expect(el(screen.getByTestId("rules-error-ruleName")).textContent).toMatch(/^the rule name "\.\.\/escape" holds a path separator/);
    fireEvent.change(section.getByLabelText(/New rule file in/), { target: { value: "---" } });
    fireEvent.click(screen.getByTestId("new-rule"));
    expect(el(screen.getByTestId("rules-error-ruleName")).textContent).toMatch(/is empty once cleaned/);
    expect(sent("settings/newRule")).toEqual([]);
  });

  it("without a folder, new rule files cannot be made", () => {
    const { section } = show([], false);
    expect(disabled(section.getByLabelText(/New rule file in/))).toBe(true);
    expect(disabled(screen.getByTestId("new-rule"))).toBe(true);
  });
});
