// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPTION_DEFAULTS, type CodeIndexView, type SettingsState } from "../../../src/shared/protocol/settings";
import { el } from "./dom";
import { answer, posted, sentAs } from "./host";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { SettingsApp } from "../../../webview-ui/src/settings/SettingsApp";
import { SettingsModel } from "../../../webview-ui/src/settings/model";

const SAVED_AT = Date.UTC(2026, 10, 29, 9, 30);

function state(codeIndex: CodeIndexView, hasWorkspace = true): SettingsState {
  return {
    profiles: [],
    active: "default",
    modes: [],
    autoApprove: { words: [], enabled: true, allowed: [], denied: [], refuseDenied: false, maxRequests: 0, maxCost: 0, workspaceFields: [] },
    options: { ...OPTION_DEFAULTS, workspaceFields: [] },
    rules: { files: [], globalDir: "" },
    skills: { skills: [], errors: [], globalDir: "" },
    imports: [],
    errors: [],
    hasWorkspace,
    codeIndex,
  };
}

function show(codeIndex: CodeIndexView, hasWorkspace?: boolean) {
  const model = new SettingsModel();
  model.apply({ type: "settings/state", state: state(codeIndex, hasWorkspace) });
  render(h(SettingsApp, { model }));
  return { model, section: within(screen.getByTestId("code-index-section")) };
}

const text = (testId: string) => el(screen.getByTestId(testId)).textContent;
const disabled = (testId: string) => (screen.getByTestId(testId) as unknown as { disabled: boolean }).disabled;
const checked = (testId: string) => (screen.getByTestId(testId) as unknown as { checked: boolean }).checked;

describe("settings: codebase index section", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("a ready index shows its files and chunks, how it ranks, and what is saved", () => {
    show({ enabled: true, state: "ready", files: 1234, chunks: 5678, restored: true, saved: { bytes: 2_400_000, savedAt: SAVED_AT } });
    expect(text("index-state")).toBe("Ready: 1,234 files, 5,678 chunks");
    expect(text("index-ranking")).toContain("Full text (BM25");
    expect(text("index-saved")).toMatch(/^2\.4 MB, .*2026.* \(this session started from it\)$/);
    expect(checked("index-enabled")).toBe(true);
    expect(disabled("index-rebuild")).toBe(false);
    // The navigation reaches it.
    expect(within(screen.getByTestId("settings-nav")).getByText("Codebase index")).toBeTruthy();
  });

  it("with an embedder: ranks by words and meaning, says how many chunks have vectors, and why it gives none", () => {
    show({ enabled: true, state: "ready", files: 10, chunks: 1200, embedder: "ollama:nomic-embed-text@http://localhost:11434", vectors: 800 });
    expect(text("index-ranking")).toBe("Words and meaning: full text (BM25) merged with the vectors of ollama:nomic-embed-text@http://localhost:11434 (800 of 1,200 chunks have one)");
    expect(screen.queryByTestId("index-embedder-problem")).toBeNull();
    cleanup();
    show({ enabled: true, state: "ready", files: 10, chunks: 1200, embedderProblem: "The openai-compatible embedder needs a base URL (the one that ends in /v1)." });
    expect(text("index-ranking")).toContain("Full text (BM25");
    expect(text("index-embedder-problem")).toBe("Embedder: The openai-compatible embedder needs a base URL (the one that ends in /v1).");
    expect((screen.getByTestId("index-embedder-problem") as unknown as { getAttribute(name: string): string | null }).getAttribute("role")).toBe("alert");
  });

  it("while indexing: how far along, with a progress bar, and Rebuild waits", () => {
    const { model } = show({ enabled: true, state: "indexing", filesDone: 12, filesTotal: 40 });
    expect(text("index-state")).toBe("Indexing: 12 of 40 files");
    const bar = el(screen.getByLabelText("Files indexed")) as unknown as { value: number; max: number };
    expect([bar.value, bar.max]).toEqual([12, 40]);
    expect(disabled("index-rebuild")).toBe(true);
    expect(text("index-saved")).toBe("Nothing saved yet");
    act(() => model.apply({ type: "settings/state", state: state({ enabled: true, state: "indexing", filesDone: 40, filesTotal: 40 }) }));
    expect(text("index-state")).toBe("Indexing: 40 of 40 files");
  });

  it("a failure says why; off says so and leaves only Delete of what is saved", () => {
    const { model } = show({ enabled: true, state: "failed", message: "EACCES: permission denied, scandir 'secret'" });
    expect(text("index-state")).toBe("Failed: EACCES: permission denied, scandir 'secret'");
    act(() => model.apply({ type: "settings/state", state: state({ enabled: false, state: "off", saved: { bytes: 5_000, savedAt: SAVED_AT } }) }));
    expect(text("index-state")).toBe("Off for this workspace");
    expect(text("index-saved")).toMatch(/^5\.0 KB, /);
    expect(checked("index-enabled")).toBe(false);
    expect(disabled("index-rebuild")).toBe(true);
    expect(disabled("index-delete")).toBe(false);
  });

  it("the switch, Rebuild and Delete (after a confirmation) ask the host; Keep it asks nothing", async () => {
    show({ enabled: true, state: "ready", files: 3, chunks: 9, saved: { bytes: 900, savedAt: SAVED_AT } });
    fireEvent.click(screen.getByTestId("index-enabled"));
    expect(sentAs("settings/setIndexEnabled").map((m) => m.enabled)).toEqual([false]);
    fireEvent.click(screen.getByTestId("index-rebuild"));
    expect(sentAs("settings/rebuildIndex")).toHaveLength(1);
    await act(() => answer(sentAs("settings/rebuildIndex")[0]!, { ok: true, message: "Indexing the workspace again, from nothing." }));
    expect(text("settings-status")).toBe("Indexing the workspace again, from nothing.");

    fireEvent.click(screen.getByTestId("index-delete"));
    expect(text("confirm-delete-index")).toContain("Delete the saved index and stop indexing this workspace?");
    fireEvent.click(within(screen.getByTestId("confirm-delete-index")).getByText("Keep it"));
    expect(screen.queryByTestId("confirm-delete-index")).toBeNull();
    expect(sentAs("settings/deleteIndex")).toEqual([]);
    fireEvent.click(screen.getByTestId("index-delete"));
    fireEvent.click(within(screen.getByTestId("confirm-delete-index")).getByText("Delete"));
    expect(sentAs("settings/deleteIndex")).toHaveLength(1);
  });

  it("with no folder open nothing can be switched or rebuilt", () => {
    show({ enabled: true, state: "off" }, false);
    expect(text("index-state")).toBe("Not started (open a folder)");
    expect([disabled("index-enabled"), disabled("index-rebuild"), disabled("index-delete")]).toEqual([true, true, true]);
  });
});
