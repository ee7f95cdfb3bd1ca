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
