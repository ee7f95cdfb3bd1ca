// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPTION_DEFAULTS, type AutoApproveView, type ModeView, type SettingsState } from "../../../src/shared/protocol/settings";
import { el } from "./dom";
import { answer, posted, sentAs } from "./host";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { SettingsApp } from "../../../webview-ui/src/settings/SettingsApp";
import { SettingsModel } from "../../../webview-ui/src/settings/model";

const APPROVE: AutoApproveView = { words: ["read"], enabled: true, allowed: [], denied: [], refuseDenied: false, maxRequests: 0, maxCost: 0, workspaceFields: [] };
const CODE: ModeView = { slug: "code", name: "Code", source: "built-in", scope: "built-in", overridesBuiltIn: false, roleDefinition: "You code.", groups: ["read", "edit", "command"] };
const DOCS: ModeView = {
  slug: "docs",
  name: "Docs",
  source: "/ws/.kilocodemodes",
  scope: "project",
  overridesBuiltIn: false,
  roleDefinition: "You write docs.",
  whenToUse: "Markdown work",
  groups: ["read", ["edit", { fileRegex: "\\.md$", description: "Markdown" }]],
};
const ASK_GLOBAL: ModeView = { slug: "ask", name: "Ask (ours)", source: "/storage/custom_modes.yaml", scope: "global", overridesBuiltIn: true, roleDefinition: "You answer.", groups: ["read"] };

function show(modes: ModeView[] = [CODE, DOCS, ASK_GLOBAL], hasWorkspace = true) {
  const model = new SettingsModel();
  const state: SettingsState = {
    profiles: [],
    active: "default",
    modes,
    autoApprove: APPROVE,
    options: { ...OPTION_DEFAULTS, workspaceFields: [] },
    rules: { files: [], globalDir: "" },
    skills: { skills: [], errors: [], globalDir: "" },
    imports: [],
    errors: [],
    hasWorkspace,
    codeIndex: { enabled: true, state: "off" },
  };
  model.apply({ type: "settings/state", state });
  render(h(SettingsApp, { model }));
  return model;
}

function sent(type: string) {
  return sentAs(type);
}
function input(testId: string): { value: string; checked: boolean; disabled: boolean } {
  return screen.getByTestId(testId) as unknown as { value: string; checked: boolean; disabled: boolean };
}
function type(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}
function row(slug: string) {
  return screen.getAllByTestId("mode").find((r) => el(r).dataset.slug === slug)!;
}

describe("settings: mode editor", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("built-in modes offer Customize, custom ones Edit and Delete; an override is marked", () => {
    show();
    expect(within(row("code")).getByText("Customize")).toBeTruthy();
    expect(within(row("code")).queryByText("Delete")).toBeNull();
    expect(within(row("docs")).getByText("Edit")).toBeTruthy();
    expect(within(row("docs")).getByText("Delete")).toBeTruthy();
    expect(within(row("ask")).getByText("overrides built-in")).toBeTruthy();
  });

  it("creates a mode from the form, with groups and an edit regex, in the project file", () => {
    show();
    fireEvent.click(screen.getByText("New mode"));
    expect(input("mode-scope").value).toBe("project");
    type("mode-slug", "reviewer");
    type("mode-name", "Reviewer");
    type("mode-roleDefinition", "You review changes.");
    type("mode-whenToUse", "Code review");
    fireEvent.click(screen.getByLabelText("Edit files"));
    type("mode-fileRegex", "\\.test\\.ts$");
    fireEvent.click(screen.getByLabelText("Run commands"));
    fireEvent.click(screen.getByText("Save mode"));
    const [message] = sent("settings/saveMode");
    expect(message).toMatchObject({
      scope: "project",
      mode: { slug: "reviewer", name: "Reviewer", roleDefinition: "You review changes.", whenToUse: "Code review", groups: ["read", ["edit", { fileRegex: "\\.test\\.ts$" }], "command"] },
    });
    expect(message!.original).toBeUndefined();
  });

  it("without a folder a new mode goes to the global file", () => {
    show([CODE], false);
    fireEvent.click(screen.getByText("New mode"));
    expect(input("mode-scope").value).toBe("global");
  });

  it("checks required fields, the slug and the regex before sending", () => {
    show();
    fireEvent.click(screen.getByText("New mode"));
    fireEvent.click(screen.getByText("Save mode"));
    expect(el(screen.getByTestId("mode-error-slug")).textContent).toBe("The slug is required");
    type("mode-slug", "my mode");
    type("mode-name", "Mine");
    type("mode-roleDefinition", "You help.");
    fireEvent.click(screen.getByText("Save mode"));
    expect(el(screen.getByTestId("mode-error-slug")).textContent).toMatch(/letters, digits and dashes/);
    type("mode-slug", "mine");
    fireEvent.click(screen.getByLabelText("Edit files"));
    type("mode-fileRegex", "([a-z");
    fireEvent.click(screen.getByText("Save mode"));
    expect(el(screen.getByTestId("mode-error-fileRegex")).textContent).toMatch(/not a valid regular expression/);
    expect(sent("settings/saveMode")).toEqual([]);
  });

  it("edits a custom mode in its own file, keeping the regex, and closes once saved", async () => {
    show();
    fireEvent.click(within(row("docs")).getByText("Edit"));
    expect(input("mode-slug").value).toBe("docs");
    expect(input("mode-whenToUse").value).toBe("Markdown work");
    expect(input("mode-group-edit").checked).toBe(true);
    expect(input("mode-group-command").checked).toBe(false);
    expect(input("mode-fileRegex").value).toBe("\\.md$");
    expect(input("mode-scope").disabled).toBe(true);
    type("mode-name", "Documentation");
    fireEvent.click(screen.getByText("Save mode"));
    const [message] = sent("settings/saveMode");
    expect(message).toMatchObject({ scope: "project", original: "docs", mode: { name: "Documentation", groups: ["read", ["edit", { fileRegex: "\\.md$", description: "Markdown" }]] } });
    await act(() => answer(message!, { ok: true, message: "Saved mode Documentation." }));
    expect(screen.queryByTestId("mode-editor")).toBeNull();
  });

  it("shows the host's refusal (file and field) under that field and keeps the form", async () => {
    show();
    fireEvent.click(within(row("docs")).getByText("Edit"));
    fireEvent.click(screen.getByText("Save mode"));
    const [message] = sent("settings/saveMode");
    await act(() => answer(message!, { ok: false, field: "slug", message: '/ws/.kilocodemodes: mode "docs": slug: another mode in this file has it' }));
    expect(el(screen.getByTestId("mode-error-slug")).textContent).toBe('/ws/.kilocodemodes: mode "docs": slug: another mode in this file has it');
    expect(screen.getByTestId("mode-editor")).toBeTruthy();
  });

  it("Customize copies a built-in into a new project mode with its fields", () => {
    show();
    fireEvent.click(within(row("code")).getByText("Customize"));
    expect(input("mode-roleDefinition").value).toBe("You code.");
    fireEvent.click(screen.getByText("Save mode"));
    const [message] = sent("settings/saveMode");
    expect(message).toMatchObject({ scope: "project", mode: { slug: "code", name: "Code", roleDefinition: "You code.", groups: ["read", "edit", "command"] } });
    expect(message!.original).toBeUndefined();
  });

  it("Delete asks in the page first, saying a built-in comes back, then sends the mode's scope", () => {
    show();
    fireEvent.click(within(row("ask")).getByText("Delete"));
    const ask = screen.getByTestId("confirm-delete");
    expect(el(ask).textContent).toMatch(/Delete custom mode Ask \(ours\)\? The built-in ask mode comes back\./);
    fireEvent.click(within(ask).getByText("Keep it"));
    expect(screen.queryByTestId("confirm-delete")).toBeNull();
    expect(sent("settings/deleteMode")).toEqual([]);
    fireEvent.click(within(row("docs")).getByText("Delete"));
    expect(el(screen.getByTestId("confirm-delete")).textContent).toContain("from /ws/.kilocodemodes");
    fireEvent.click(within(screen.getByTestId("confirm-delete")).getByText("Delete"));
    expect(sent("settings/deleteMode")).toMatchObject([{ scope: "project", slug: "docs" }]);
  });
});
