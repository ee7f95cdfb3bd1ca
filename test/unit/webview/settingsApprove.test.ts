// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPTION_DEFAULTS, type AutoApproveView, type SettingsState } from "../../../src/shared/protocol/settings";
import { el } from "./dom";
import { answer, posted, sentAs } from "./host";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { SettingsApp } from "../../../webview-ui/src/settings/SettingsApp";
import { SettingsModel } from "../../../webview-ui/src/settings/model";

const APPROVE: AutoApproveView = {
  words: ["read", "edit"],
  enabled: true,
  allowed: ["npm test", "git status"],
  denied: ["rm -rf"],
  refuseDenied: false,
  maxRequests: 0,
  maxCost: 0,
  workspaceFields: [],
};

function state(approve: Partial<AutoApproveView> = {}): SettingsState {
  return {
    profiles: [],
    active: "default",
    modes: [],
    autoApprove: { ...APPROVE, ...approve },
    options: { ...OPTION_DEFAULTS, workspaceFields: [] },
    rules: { files: [], globalDir: "" },
    skills: { skills: [], errors: [], globalDir: "" },
    imports: [],
    errors: [],
    hasWorkspace: true,
    codeIndex: { enabled: true, state: "off" },
  };
}

function show(approve: Partial<AutoApproveView> = {}) {
  const model = new SettingsModel();
  model.apply({ type: "settings/state", state: state(approve) });
  render(h(SettingsApp, { model }));
  const section = screen.getByTestId("approve-section");
  return { model, section };
}

function sent() {
  return sentAs("settings/setAutoApprove");
}
function checked(node: unknown): boolean {
  return (node as { checked: boolean }).checked;
}
function value(node: unknown): string {
  return (node as { value: string }).value;
}

describe("settings: auto-approve section", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows each category with a label, checked as the settings say", () => {
    show();
    expect(checked(screen.getByLabelText("Read files in the workspace"))).toBe(true);
    expect(checked(screen.getByLabelText("Edit files in the workspace"))).toBe(true);
    expect(checked(screen.getByLabelText("Delete files"))).toBe(false);
    expect(checked(screen.getByLabelText(/Run commands/))).toBe(false);
    for (const word of ["read", "read-outside", "edit", "write-outside", "write-protected", "delete", "command", "browser", "mcp", "mode", "subtask", "todo"]) {
      expect(screen.getByTestId(`approve-${word}`)).toBeTruthy();
    }
    expect(checked(screen.getByLabelText(/Auto-approve is on/))).toBe(true);
  });

  it("ticking and unticking a category sends the whole new list", () => {
    show();
    fireEvent.click(screen.getByLabelText("Run commands (allowed prefixes below)"));
    fireEvent.click(screen.getByLabelText("Read files in the workspace"));
    expect(sent().map((m) => m.changes)).toEqual([{ words: ["read", "edit", "command"] }, { words: ["edit"] }]);
  });

  it("the global switch and refuse-denied send their flags", () => {
    show();
    fireEvent.click(screen.getByLabelText(/Auto-approve is on/));
    fireEvent.click(screen.getByLabelText(/Refuse denied commands/));
    expect(sent().map((m) => m.changes)).toEqual([{ enabled: false }, { refuseDenied: true }]);
  });

  it("adds a command prefix with Enter or Add and removes one with its button", () => {
    show();
    const allowed = screen.getByTestId("prefixes-allowed");
    expect([...el(allowed).querySelectorAll("code")].map((c) => c.textContent)).toEqual(["npm test", "git status"]);
    const box = within(allowed).getByLabelText("New prefix for Allowed command prefixes");
    fireEvent.change(box, { target: { value: "  npm run lint " } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(value(box)).toBe("");
    const denied = screen.getByTestId("prefixes-denied");
    fireEvent.change(within(denied).getByLabelText("New prefix for Denied command prefixes"), { target: { value: "git push" } });
    fireEvent.click(within(denied).getByText("Add"));
    fireEvent.click(screen.getByLabelText("Remove git status from Allowed command prefixes"));
    expect(sent().map((m) => m.changes)).toEqual([{ allowed: ["npm test", "git status", "npm run lint"] }, { denied: ["rm -rf", "git push"] }, { allowed: ["npm test"] }]);
  });

  it("checks the limits before sending: a whole number of requests, a cost of 0 or more", () => {
    show();
    const requests = screen.getByLabelText(/Max auto-approved requests/);
    const cost = screen.getByLabelText(/Max cost per task/);
    fireEvent.change(requests, { target: { value: "2.5" } });
    fireEvent.click(screen.getByText("Save limits"));
    expect(el(screen.getByTestId("approve-error-maxRequests")).textContent).toMatch(/whole number/);
    fireEvent.change(requests, { target: { value: "20" } });
    fireEvent.change(cost, { target: { value: "-1" } });
    fireEvent.click(screen.getByText("Save limits"));
    expect(el(screen.getByTestId("approve-error-maxCost")).textContent).toMatch(/0 or more/);
    expect(sent()).toEqual([]);
    fireEvent.change(cost, { target: { value: "1.5" } });
    fireEvent.click(screen.getByText("Save limits"));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(sent().map((m) => m.changes)).toEqual([{ maxRequests: 20, maxCost: 1.5 }]);
  });

  it("shows the host's refusal under the field it names", async () => {
    show();
    fireEvent.click(screen.getByLabelText("Delete files"));
    await act(() => answer(sent()[0]!, { ok: false, field: "words", message: "kiln.autoApprove each must be one of read, edit" }));
    expect(el(screen.getByTestId("approve-error-words")).textContent).toBe("kiln.autoApprove each must be one of read, edit");
  });

  it("follows changes made elsewhere: new state from the host updates every control", () => {
    const { model } = show();
    act(() => model.apply({ type: "settings/state", state: state({ words: ["browser"], enabled: false, allowed: [], maxRequests: 7, maxCost: 2, workspaceFields: ["maxRequests"] }) }));
    expect(checked(screen.getByLabelText("Read files in the workspace"))).toBe(false);
    expect(checked(screen.getByLabelText("Use the browser"))).toBe(true);
    expect(checked(screen.getByLabelText(/Auto-approve is on/))).toBe(false);
    expect(within(screen.getByTestId("prefixes-allowed")).getByText("(none)")).toBeTruthy();
    expect(value(screen.getByLabelText(/Max auto-approved requests/))).toBe("7");
    expect(value(screen.getByLabelText(/Max cost per task/))).toBe("2");
    expect(el(screen.getByTestId("approve-workspace")).textContent).toBe("Set for this workspace (changes are saved there): max requests");
  });
});
