// @vitest-environment happy-dom
import { PROVIDER_ENTRIES } from "../../../src/shared/providerCatalog";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import type { Pickers as PickersState } from "../../../src/shared/protocol/messages";
import { OPTION_DEFAULTS, type AutoApproveView, type ModeView, type OptionsView, type ProfileView, type RuleView, type SettingsState } from "../../../src/shared/protocol/settings";
import { el, texts, type El } from "./dom";
import { answer, sentAs } from "./host";
import { inPseudoLocale, untranslated } from "./pseudoLocale";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { SettingsApp } from "../../../webview-ui/src/settings/SettingsApp";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { Pickers } from "../../../webview-ui/src/settings/Pickers";
import { SettingsModel } from "../../../webview-ui/src/settings/model";
import { applyPickers } from "../../../webview-ui/src/settings/pickerStore";

/*
 * The settings page under a pseudo-locale: every word the page itself says must come through
 * l10n.t. What the host sends (profile and mode names, models, paths, its own answers) is data.
 */

const PROFILES: ProfileView[] = [
  { name: "default", kind: "openai", baseUrl: "", model: "gpt-5", protocol: "xml", source: "legacy", hasKey: false },
  { name: "Local", kind: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen", protocol: "native", source: "settings", hasKey: true, autoCondensePercent: 60 },
];
const CODE: ModeView = { slug: "code", name: "Code", source: "built-in", scope: "built-in", overridesBuiltIn: false, roleDefinition: "You code.", groups: ["read", "edit", "command"] };
const DOCS: ModeView = {
  slug: "docs",
  name: "Docs",
  source: "/ws/.kilocodemodes",
  scope: "project",
  overridesBuiltIn: false,
  roleDefinition: "You write docs.",
  whenToUse: "Markdown work",
  description: "Writes the docs",
  customInstructions: "Short sentences.",
  groups: ["read", ["edit", { fileRegex: "\\.md$", description: "Markdown" }]],
  pinnedProfile: "Gone",
};
const ASK: ModeView = {
  slug: "ask",
  name: "Ask (ours)",
  source: "/storage/custom_modes.yaml",
  scope: "global",
  overridesBuiltIn: true,
  roleDefinition: "You answer.",
  groups: ["read"],
  pinnedProfile: "Local",
};
const RULES: RuleView[] = [
  { id: "global:rules/lang.md", scope: "global", path: "/home/me/.storage/rules/lang.md", size: 120, enabled: true },
  { id: "global:rules-ask/short.md", scope: "global", mode: "ask", path: "/home/me/.storage/rules-ask/short.md", size: 90, enabled: true },
  { id: "project:.kilocode/rules/style.md", scope: "project", path: ".kilocode/rules/style.md", size: 2_500, enabled: true },
  { id: "project:.kilocode/rules-code/tests.md", scope: "project", mode: "code", path: ".kilocode/rules-code/tests.md", size: 10, enabled: false },
];
const APPROVE: AutoApproveView = {
  words: ["read", "edit"],
  enabled: true,
  allowed: ["npm test", "git status"],
  denied: [],
  refuseDenied: false,
  maxRequests: 20,
  maxCost: 1.5,
  workspaceFields: ["enabled", "allowed", "maxRequests"],
};
const OPTIONS: OptionsView = { ...OPTION_DEFAULTS, browserPath: "/usr/bin/chromium", workspaceFields: ["mode", "requireTodosDone", "readFileMaxLines"] };

function state(over: Partial<SettingsState> = {}): SettingsState {
  return {
    profiles: PROFILES,
    active: "default",
    modes: [CODE, DOCS, ASK],
    autoApprove: APPROVE,
    options: OPTIONS,
    rules: { files: RULES, globalDir: "/home/me/.storage/rules" },
    skills: {
      skills: [
        {
          id: "project:.kilocode/skills/release-notes",
          name: "release-notes",
          description: "Write the release notes from the changelog",
          scope: "project",
          path: ".kilocode/skills/release-notes",
          enabled: false,
        },
      ],
      errors: [".claude/skills/broken/SKILL.md: not loaded as a skill: its front matter has no description"],
      globalDir: "/home/me/.storage/skills",
    },
    imports: [{ kind: "roo", label: "Roo Code", path: "/home/me/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline" }],
    errors: [],
    hasWorkspace: true,
    codeIndex: { enabled: true, state: "off" },
    ...over,
  };
}

/**
 * What the page shows of the host's data. A piece of text outside ⟦⟧ is excused only when it is
 * made of these alone (with punctuation, numbers and spaces): names, models, paths, slugs, the
 * provider kinds and tool protocols that are the values of their settings, and the host's answers.
 */
const DATA = [
  ...PROFILES.flatMap((p) => [p.name, p.model, p.baseUrl]),
  ...[CODE, DOCS, ASK].flatMap((m) => [m.name, m.slug, m.source, m.roleDefinition, m.whenToUse ?? "", m.description ?? "", m.customInstructions ?? "", "Gone"]),
  ...RULES.map((r) => r.path),
  "/home/me/.storage/rules",
  // A skill's name, description and folder, and the host's problem with a SKILL.md (host words).
  "/release-notes",
  "Write the release notes from the changelog",
  ".kilocode/skills/release-notes",
  ".claude/skills/broken/SKILL.md: not loaded as a skill: its front matter has no description",
  "/home/me/.storage/skills",
  // Another agent found to import from: its product name and folder.
  "Roo Code",
  "/home/me/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline",
  "/usr/bin/chromium",
  // The user's command prefixes, and the example base URL of a local server.
  ...APPROVE.allowed,
  "http://localhost:11434/v1",
  // Providers' product names, as their vendors write them.
  ...PROVIDER_ENTRIES.filter((e) => e.kind !== "openai-compatible").map((e) => e.label),
  // The values of kiln.provider.kind and kiln.provider.protocol, shown as they are written in settings.json.
  "anthropic",
  "openai-compatible",
  "openai",
  "xml",
  "native",
  "auto",
  // The host's own words (translated by the host).
  "kiln.autoApprove: an unknown category was skipped",
  "Saved the profile Local.",
]
  .filter((d) => d !== "")
  .sort((a, b) => b.length - a.length);

/** Whether `text` is made of the data above and `more` (what a test typed or changed) alone. */
function dataWith(...more: string[]): (text: string) => boolean {
  const known = [...DATA, ...more].sort((a, b) => b.length - a.length);
  return (text) => {
    let rest = text;
    for (const d of known) rest = rest.split(d).join(" ");
    return !/[A-Za-z]{2,}/.test(rest);
  };
}
const isData = dataWith();

// Through El: the root tsconfig checks test/ without the DOM library (see dom.ts).
const asElement = (node: El) => node as unknown as Element;
const asHtml = (node: El) => node as unknown as HTMLElement;
let page: El;

function show(over: Partial<SettingsState> = {}) {
  const model = new SettingsModel();
  model.apply({ type: "settings/state", state: state(over) });
  page = el(render(h(SettingsApp, { model })).container);
  return { model, root: asElement(page) };
}

const section = (id: string) => asElement(page.querySelector(`section[aria-labelledby="${id}"]`)!);
const inSection = (id: string) => within(asHtml(page.querySelector(`section[aria-labelledby="${id}"]`)!));
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const row = (slug: string) => screen.getAllByTestId("mode").find((r) => el(r).dataset.slug === slug)!;

describe("the settings page in another language", () => {
  inPseudoLocale();

  it("the page's frame: loading, title, navigation, skipped settings and the status line", async () => {
    const model = new SettingsModel();
    const view = render(h(SettingsApp, { model }));
    page = el(view.container);
    const root = asElement(page);
    expect(page.textContent).toBe("⟦Loading…⟧");
    act(() => model.apply({ type: "settings/state", state: state({ errors: ["kiln.autoApprove: an unknown category was skipped"] }) }));
    fireEvent.click(inSection("ks-profiles").getAllByText("⟦Make active⟧")[1]!);
    await act(() => answer(sentAs("settings/setActive")[0]!, { ok: true, message: "Saved the profile Local." }));
    expect(el(screen.getByTestId("settings-status")).textContent).toBe("Saved the profile Local.");
    expect(untranslated(root, isData)).toEqual([]);
    expect(el(screen.getByTestId("settings-nav")).textContent).toBe("⟦Providers⟧⟦Auto-approve⟧⟦Limits and tools⟧⟦Modes⟧⟦Rules⟧⟦Skills⟧⟦Codebase index⟧⟦Import⟧");
  });

  it("providers: the list, the key boxes, the delete question and both editors", () => {
    show();
    expect(untranslated(section("ks-profiles"), isData)).toEqual([]);
    fireEvent.click(screen.getByTestId("delete-profile"));
    expect(el(screen.getByTestId("confirm-delete")).textContent).toBe("⟦Delete profile Local and its key?⟧⟦Delete⟧⟦Keep it⟧");
    expect(untranslated(section("ks-profiles"), isData)).toEqual([]);
    fireEvent.click(inSection("ks-profiles").getByText("⟦Keep it⟧"));

    // The default profile's form, then a new one (the openai-compatible placeholder is a URL).
    fireEvent.click(inSection("ks-profiles").getAllByText("⟦Edit⟧")[0]!);
    expect(untranslated(section("ks-profiles"), isData)).toEqual([]);
    fireEvent.click(within(screen.getByTestId("profile-editor")).getByText("⟦Cancel⟧"));
    fireEvent.click(screen.getByTestId("add-profile"));
    expect(untranslated(section("ks-profiles"), isData)).toEqual([]);
    // The page's own refusals, each a whole translated sentence.
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(el(screen.getByTestId("error-name")).textContent).toBe("⟦a profile needs a name⟧");
    type("field-cacheReadPrice", "cheap");
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(el(screen.getByTestId("error-modelInfo")).textContent).toBe("⟦Cache read price ($/M) must be a number⟧");
    type("field-cacheReadPrice", "");
    type("field-autoCondensePercent", "150");
    fireEvent.click(screen.getByTestId("save-profile"));
    expect(el(screen.getByTestId("error-autoCondensePercent")).textContent).toBe("⟦auto-condense must be a whole number from 0 to 100⟧");
    expect(untranslated(section("ks-profiles"), isData)).toEqual([]);
  });

  it("auto-approve: categories, prefix lists, limits and their refusals, on and off", () => {
    const { model } = show();
    const approve = screen.getByTestId("approve-section");
    expect(untranslated(approve, isData)).toEqual([]);
    expect(el(screen.getByTestId("approve-workspace")).textContent).toBe("⟦Set for this workspace (changes are saved there): ⟦on/off⟧, ⟦allowed commands⟧, ⟦max requests⟧⟧");
    type("field-maxRequests", "1.5");
    fireEvent.click(screen.getByTestId("save-limits"));
    expect(el(screen.getByTestId("approve-error-maxRequests")).textContent).toBe("⟦Max requests must be a whole number, 0 or more⟧");
    type("field-maxRequests", "3");
    type("field-maxCost", "-1");
    fireEvent.click(screen.getByTestId("save-limits"));
    expect(el(screen.getByTestId("approve-error-maxCost")).textContent).toBe("⟦Max cost must be a number, 0 or more⟧");
    expect(untranslated(approve, isData)).toEqual([]);
    act(() => model.apply({ type: "settings/state", state: state({ autoApprove: { ...APPROVE, enabled: false, allowed: [], denied: ["rm -rf"], workspaceFields: [] } }) }));
    expect(untranslated(approve, dataWith("rm -rf"))).toEqual([]);
  });

  it("limits and tools: every label, group and note, and a refusal of a bad value", () => {
    const { model } = show();
    const options = screen.getByTestId("options-section");
    expect(untranslated(options, isData)).toEqual([]);
    type("options-maxRequests", "0");
    fireEvent.click(screen.getByTestId("save-options"));
    // The label is translated; the schema's "must be …" is the host's shared English, inside the message.
    expect(el(screen.getByTestId("options-error-maxRequests")).textContent).toMatch(/^⟦⟦Max model requests per task⟧ must be a whole number, 1 or more/);
    expect(untranslated(options, isData)).toEqual([]);
    // A default mode the page does not know is shown by its slug.
    act(() => model.apply({ type: "settings/state", state: state({ options: { ...OPTIONS, mode: "gone-mode", workspaceFields: [] } }) }));
    expect(untranslated(options, dataWith("gone-mode"))).toEqual([]);
  });

  it("modes: the table, the delete questions, and the editor for a new, a custom and a built-in mode", () => {
    show();
    expect(untranslated(section("ks-modes"), isData)).toEqual([]);
    expect(el(el(row("code")).querySelector("td.ks-path")).textContent).toBe("⟦built-in⟧");
    fireEvent.click(within(row("ask")).getByText("⟦Delete⟧"));
    expect(el(screen.getByTestId("confirm-delete")).textContent).toMatch(/^⟦Delete custom mode Ask \(ours\)\? The built-in ask mode comes back\.⟧/);
    expect(untranslated(section("ks-modes"), isData)).toEqual([]);
    fireEvent.click(within(row("docs")).getByText("⟦Delete⟧"));
    expect(el(screen.getByTestId("confirm-delete")).textContent).toMatch(/^⟦Delete mode Docs from \/ws\/\.kilocodemodes\?⟧/);
    expect(untranslated(section("ks-modes"), isData)).toEqual([]);
    fireEvent.click(within(screen.getByTestId("confirm-delete")).getByText("⟦Keep it⟧"));

    fireEvent.click(screen.getByTestId("new-mode"));
    expect(untranslated(section("ks-modes"), isData)).toEqual([]);
    fireEvent.click(screen.getByTestId("save-mode"));
    expect(el(screen.getByTestId("mode-error-slug")).textContent).toBe("⟦The slug is required⟧");
    type("mode-slug", "-bad");
    type("mode-name", "Reviewer");
    type("mode-roleDefinition", "You review.");
    fireEvent.click(screen.getByTestId("save-mode"));
    expect(el(screen.getByTestId("mode-error-slug")).textContent).toBe("⟦The slug uses letters, digits and dashes, and starts with a letter or digit⟧");
    type("mode-slug", "reviewer");
    fireEvent.click(screen.getByTestId("mode-group-edit"));
    type("mode-fileRegex", "(");
    fireEvent.click(screen.getByTestId("save-mode"));
    expect(el(screen.getByTestId("mode-error-fileRegex")).textContent).toBe("⟦The file regex is not a valid regular expression⟧");
    expect(untranslated(section("ks-modes"), dataWith("Reviewer", "You review."))).toEqual([]);

    fireEvent.click(within(row("docs")).getByText("⟦Edit⟧"));
    expect(el(el(screen.getByTestId("mode-editor")).querySelector("h3")).textContent).toBe("⟦Edit mode Docs⟧");
    expect(untranslated(section("ks-modes"), isData)).toEqual([]);
    fireEvent.click(within(row("code")).getByText("⟦Customize⟧"));
    expect(el(el(screen.getByTestId("mode-editor")).querySelector("h3")).textContent).toBe("⟦Customize Code⟧");
    expect(untranslated(section("ks-modes"), isData)).toEqual([]);
  });

  it("rules: the list, sizes and scopes, the new-file form, with and without a folder", () => {
    const { model, root } = show();
    const rules = screen.getByTestId("rules-section");
    expect(untranslated(rules, isData)).toEqual([]);
    expect([...el(rules).querySelectorAll("tbody tr")].map((r) => texts(r, "td").slice(2, 4))).toEqual([
      ["⟦global⟧", "⟦120 B⟧"],
      ["⟦global, ask mode⟧", "⟦90 B⟧"],
      ["⟦project⟧", "⟦2.5 KB⟧"],
      ["⟦project, code mode⟧", "⟦10 B⟧"],
    ]);
    act(() => model.apply({ type: "settings/state", state: state({ rules: { files: [], globalDir: "" }, hasWorkspace: false }) }));
    expect(el(screen.getByTestId("rules-empty")).textContent).toBe("⟦No rule files yet.⟧");
    expect(untranslated(rules, isData)).toEqual([]);
    // Without a folder the page as a whole still speaks the page's language.
    expect(untranslated(root, isData)).toEqual([]);
  });

  it("the chat's profile picker", () => {
    const pickers: PickersState = { modes: [], profiles: PROFILES.map(({ name, kind, model }) => ({ name, kind, model })) };
    act(() => applyPickers({ type: "chat/pickers", pickers }));
    const view = render(h(Pickers));
    const root = asElement(el(view.container));
    expect(untranslated(root, isData)).toEqual([]);
    expect(el(screen.getByTestId("profile-picker")).getAttribute("title")).toBe("⟦Provider profile⟧");
    act(() => applyPickers({ type: "chat/pickers", pickers: { ...pickers, profile: "Local", provider: { kind: "openai-compatible", model: "qwen" } } }));
    expect(untranslated(root, isData)).toEqual([]);
  });
});
