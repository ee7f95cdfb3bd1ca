// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPTION_DEFAULTS, type SettingsState } from "../../../src/shared/protocol/settings";
import { el } from "./dom";
import { posted } from "./host";
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
  rules: { files: [], globalDir: "" },
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
    expect(posted).toEqual([{ type: "settings/deleteProfile", requestId: expect.any(String), name: "Local" }]);
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
