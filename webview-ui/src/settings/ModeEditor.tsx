import * as l10n from "@vscode/l10n";
import { useState } from "react";
import type { ModeForm, ModeGroupView, ModeView } from "../../../src/shared/protocol/settings";
import { useSaveRequest } from "./useSaveRequest";
import type { SettingsAsk } from "./model";

const GROUPS = ["read", "edit", "command", "browser", "mcp"] as const;
type GroupName = (typeof GROUPS)[number];

/** A tool group's label; translated when drawn (the bundle is set after the modules load). */
function groupLabel(group: GroupName): string {
  switch (group) {
    case "read":
      return l10n.t("Read files");
    case "edit":
      return l10n.t("Edit files");
    case "command":
      return l10n.t("Run commands");
    case "browser":
      return l10n.t("Use the browser");
    case "mcp":
      return l10n.t("Use MCP tools");
  }
}

/** The page's refusal of an empty required field, one sentence per field. */
function requiredMessage(field: "slug" | "name" | "roleDefinition"): string {
  switch (field) {
    case "slug":
      return l10n.t("The slug is required");
    case "name":
      return l10n.t("The name is required");
    case "roleDefinition":
      return l10n.t("The role definition is required");
  }
}
const TEXTS = ["slug", "name", "roleDefinition", "whenToUse", "description", "customInstructions"] as const;
type TextField = (typeof TEXTS)[number];
const SLUG = /^[a-zA-Z0-9][a-zA-Z0-9-]*$/;

export interface ModeEditorTarget {
  /** The mode the form starts from; undefined for an empty form. */
  mode?: ModeView;
  /** Saving replaces `mode` in its file (edit), or adds a new mode (new, or a customized built-in). */
  replace: boolean;
  scope: "project" | "global";
}

function groupOf(groups: readonly ModeGroupView[], name: GroupName): ModeGroupView | undefined {
  return groups.find((g) => (typeof g === "string" ? g : g[0]) === name);
}

/**
 * Creates or edits a custom mode. Checks the obvious here (required fields, the slug's form, the
 * regex compiles); the host checks again with the mode files' rules and names the file and field.
 */
export function ModeEditor({ target, hasWorkspace, ask, onDone }: { target: ModeEditorTarget; hasWorkspace: boolean; ask: SettingsAsk; onDone(): void }) {
  const start = target.mode;
  const [texts, setTexts] = useState<Record<TextField, string>>(() => Object.fromEntries(TEXTS.map((k) => [k, start?.[k] ?? ""])) as Record<TextField, string>);
  const [checked, setChecked] = useState<Record<GroupName, boolean>>(
    () => Object.fromEntries(GROUPS.map((g) => [g, groupOf(start?.groups ?? ["read"], g) !== undefined])) as Record<GroupName, boolean>,
  );
  const editGroup = groupOf(start?.groups ?? [], "edit");
  const editOptions = typeof editGroup === "object" ? editGroup[1] : {};
  const [fileRegex, setFileRegex] = useState(editOptions.fileRegex ?? "");
  const [regexNote, setRegexNote] = useState(editOptions.description ?? "");
  const [scope, setScope] = useState<"project" | "global">(target.scope);
  const { error, refuse, submit } = useSaveRequest(onDone);

  const save = () => {
    const missing = (["slug", "name", "roleDefinition"] as const).find((k) => texts[k].trim() === "");
    if (missing) return refuse(missing, requiredMessage(missing));
    if (!SLUG.test(texts.slug.trim())) return refuse("slug", l10n.t("The slug uses letters, digits and dashes, and starts with a letter or digit"));
    if (checked.edit && fileRegex.trim() !== "") {
      try {
        new RegExp(fileRegex.trim());
      } catch {
        return refuse("fileRegex", l10n.t("The file regex is not a valid regular expression"));
      }
    }
    const groups: ModeForm["groups"] = GROUPS.filter((g) => checked[g]).map((g) =>
      g === "edit" && fileRegex.trim() !== "" ? ["edit", { fileRegex: fileRegex.trim(), ...(regexNote.trim() ? { description: regexNote.trim() } : {}) }] : g,
    );
    submit(
      ask("settings/saveMode", {
        scope,
        ...(target.replace && start ? { original: start.slug } : {}),
        mode: { ...texts, groups },
      }),
    );
  };

  const fieldError = (field: string) =>
    error?.field === field ? (
      <div className="ks-field-error" role="alert" data-testid={`mode-error-${field}`}>
        {error.message}
      </div>
    ) : null;
  const text = (field: TextField, label: string, multiline = false) => (
    <>
      <label>
        {label}
        {multiline ? (
          <textarea data-testid={`mode-${field}`} rows={3} value={texts[field]} onChange={(e) => setTexts({ ...texts, [field]: e.target.value })} />
        ) : (
          <input data-testid={`mode-${field}`} value={texts[field]} onChange={(e) => setTexts({ ...texts, [field]: e.target.value })} />
        )}
      </label>
      {fieldError(field)}
    </>
  );

  return (
    <form
      className="ks-editor"
      data-testid="mode-editor"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <h3>{target.replace && start ? l10n.t("Edit mode {0}", start.label ?? start.name) : start ? l10n.t("Customize {0}", start.label ?? start.name) : l10n.t("New mode")}</h3>
      <label>
        {l10n.t("Saved in")}
        <select data-testid="mode-scope" value={scope} disabled={target.replace} onChange={(e) => setScope(e.target.value as "project" | "global")}>
          <option value="project" disabled={!hasWorkspace}>
            {l10n.t("This project (.kilocodemodes)")}
          </option>
          <option value="global">{l10n.t("All projects (global modes file)")}</option>
        </select>
      </label>
      {fieldError("scope")}
      {text("slug", l10n.t("Slug (letters, digits, dashes)"))}
      {text("name", l10n.t("Name"))}
      {text("roleDefinition", l10n.t("Role definition"), true)}
      {text("whenToUse", l10n.t("When to use (optional)"), true)}
      {text("description", l10n.t("Description (optional)"))}
      {text("customInstructions", l10n.t("Custom instructions (optional)"), true)}
      <fieldset className="ks-groups">
        <legend>{l10n.t("Tools this mode may use")}</legend>
        {GROUPS.map((g) => (
          <label key={g} className="ks-check">
            <input type="checkbox" data-testid={`mode-group-${g}`} checked={checked[g]} onChange={(e) => setChecked({ ...checked, [g]: e.target.checked })} />
            {groupLabel(g)}
          </label>
        ))}
        {checked.edit && (
          <>
            <label>
              {l10n.t("Only files matching (regex, optional)")}
              <input data-testid="mode-fileRegex" placeholder={l10n.t("e.g. {0}", "\\.md$")} value={fileRegex} onChange={(e) => setFileRegex(e.target.value)} />
            </label>
            {fieldError("fileRegex")}
            {fileRegex.trim() !== "" && (
              <label>
                {l10n.t("Which files, in words (optional)")}
                <input data-testid="mode-fileRegexDescription" value={regexNote} onChange={(e) => setRegexNote(e.target.value)} />
              </label>
            )}
          </>
        )}
      </fieldset>
      {fieldError("groups")}
      {error && ![...TEXTS, "scope", "groups", "fileRegex"].includes(error.field ?? "") && (
        <div className="ks-field-error" role="alert" data-testid="mode-error">
          {error.message}
        </div>
      )}
      <div className="ks-actions">
        <button type="submit" data-testid="save-mode">
          {l10n.t("Save mode")}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {l10n.t("Cancel")}
        </button>
      </div>
    </form>
  );
}
