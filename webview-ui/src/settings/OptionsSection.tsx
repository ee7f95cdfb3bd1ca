import * as l10n from "@vscode/l10n";
import { useEffect, useState } from "react";
import { OPTION_SETTING, OptionChangesSchema, settingProblem, type ModeView, type OptionChanges, type OptionField, type OptionsView } from "../../../src/shared/protocol/settings";
import type { Result, SettingsAsk } from "./model";
import { useLatestAnswer } from "./useSaveRequest";

type TextField = Exclude<OptionField, "mode" | "requireTodosDone">;

type Group = "task" | "context" | "budgets" | "terminal" | "edits" | "browser";

/** The boxes, grouped as a user looks for them; each is saved with the form's one Save button. */
const GROUPS: { group: Group; fields: { field: TextField; numeric: boolean }[] }[] = [
  {
    group: "task",
    fields: [
      { field: "maxRequests", numeric: true },
      { field: "retries", numeric: true },
    ],
  },
  {
    group: "context",
    fields: [
      { field: "readFileMaxLines", numeric: true },
      { field: "toolResultMaxChars", numeric: true },
      { field: "autoCondensePercent", numeric: true },
      { field: "shortenResultsAfter", numeric: true },
    ],
  },
  {
    group: "budgets",
    fields: [
      { field: "budgetMaxTokens", numeric: true },
      { field: "budgetMaxCost", numeric: true },
      { field: "budgetMaxInputTokens", numeric: true },
    ],
  },
  { group: "terminal", fields: [{ field: "outputMaxChars", numeric: true }] },
  { group: "edits", fields: [{ field: "fuzzyThreshold", numeric: true }] },
  { group: "browser", fields: [{ field: "browserPath", numeric: false }] },
];
const TEXT_FIELDS = GROUPS.flatMap((g) => g.fields);

/** A group's heading; translated when drawn (the bundle is set after the modules load). */
function groupTitle(group: Group): string {
  switch (group) {
    case "task":
      return l10n.t("Task");
    case "context":
      return l10n.t("Context");
    case "budgets":
      return l10n.t("Budgets of a task (0: no limit)");
    case "terminal":
      return l10n.t("Terminal");
    case "edits":
      return l10n.t("Edits");
    case "browser":
      return l10n.t("Browser");
  }
}

/** A setting's label, over its box and at the start of the page's refusal of its value. */
function optionLabel(field: OptionField): string {
  switch (field) {
    case "mode":
      return l10n.t("Default mode of new tasks");
    case "requireTodosDone":
      return l10n.t("Require todos done");
    case "maxRequests":
      return l10n.t("Max model requests per task");
    case "retries":
      return l10n.t("Automatic retries of a failed request (0 to 10)");
    case "readFileMaxLines":
      return l10n.t("Lines read_file shows per file");
    case "toolResultMaxChars":
      return l10n.t("Characters of a tool result sent to the model (the rest is saved to a file)");
    case "autoCondensePercent":
      return l10n.t("Condense the conversation at this % of the model's window (0: never; the oldest turns are hidden instead)");
    case "shortenResultsAfter":
      return l10n.t("Send an old large tool result as a one-line note after this many newer ones (0: never)");
    case "budgetMaxTokens":
      return l10n.t("Tokens in all");
    case "budgetMaxCost":
      return l10n.t("Cost in USD (where the model's prices are known)");
    case "budgetMaxInputTokens":
      return l10n.t("Input tokens of one request");
    case "outputMaxChars":
      return l10n.t("Characters of command output shown (head and tail)");
    case "fuzzyThreshold":
      return l10n.t("apply_diff match threshold (0.8 to 1; 1: exact apart from whitespace)");
    case "browserPath":
      return l10n.t("Browser executable (empty: found automatically)");
  }
}

const isOptionField = (field: string): field is OptionField => Object.hasOwn(OPTION_SETTING, field);

type Drafts = Record<TextField, string>;
const draftsOf = (options: OptionsView): Drafts => Object.fromEntries(TEXT_FIELDS.map(({ field }) => [field, String(options[field])])) as Drafts;

function FieldError({ error, field }: { error: Result | undefined; field: string }) {
  if (!error || error.ok || error.field !== field) return null;
  return (
    <div className="ks-field-error" role="alert" data-testid={`options-error-${field}`}>
      {error.message}
    </div>
  );
}

/**
 * The edited boxes as changes, checked here with the host's own schema so the page and the host
 * refuse the same values with the same words.
 */
function changesOf(drafts: Drafts, options: OptionsView): { changes: OptionChanges } | { error: Result } {
  const raw: Record<string, unknown> = {};
  for (const { field, numeric } of TEXT_FIELDS) {
    const text = drafts[field].trim();
    if (text === String(options[field])) continue;
    raw[field] = numeric ? (text === "" ? Number.NaN : Number(text)) : text;
  }
  const parsed = OptionChangesSchema.safeParse(raw);
  if (parsed.success) return { changes: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "options");
  // The schema's sentence (shared with the host, which names the kiln.* key instead) about the box's label.
  const message = settingProblem(issue, isOptionField(field) ? optionLabel(field) : field);
  return { error: { ok: false, field, message } };
}

/** Task defaults, the limits on what reaches the model, apply_diff and the browser: kiln.* settings. */
export function OptionsSection({ options, modes, ask }: { options: OptionsView; modes: readonly ModeView[]; ask: SettingsAsk }) {
  const [drafts, setDrafts] = useState(() => draftsOf(options));
  const [local, setLocal] = useState<Result | undefined>();
  const [answer, track] = useLatestAnswer();
  // A change made elsewhere (settings.json, another window) replaces what the boxes show; a state
  // with the same values (after any other request on the page) keeps the edits not yet saved.
  const current = JSON.stringify(draftsOf(options));
  useEffect(() => setDrafts(JSON.parse(current) as Drafts), [current]);
  const error = local ?? answer;
  const save = (changes: OptionChanges) => {
    setLocal(undefined);
    track(ask("settings/setOptions", { changes }));
  };
  const submit = () => {
    const checked = changesOf(drafts, options);
    if ("error" in checked) return setLocal(checked.error);
    if (Object.keys(checked.changes).length > 0) save(checked.changes);
  };
  const dirty = TEXT_FIELDS.some(({ field }) => drafts[field].trim() !== String(options[field]));
  const where = (field: OptionField) => (options.workspaceFields.includes(field) ? <span className="ks-muted"> {l10n.t("(workspace)")}</span> : null);
  const known = modes.some((m) => m.slug === options.mode);
  return (
    <section className="ks-section" aria-labelledby="ks-options" data-testid="options-section">
      <h2 id="ks-options">{l10n.t("Limits and tools")}</h2>
      <p className="ks-hint">
        {l10n.t("Defaults of new tasks, how much of files, tool results and command output reaches the model, and what a task may spend.")}{" "}
        {l10n.t("Limits and budgets apply to the next request, also in a running task.")}
      </p>
      {options.workspaceFields.length > 0 && (
        <p className="ks-hint" data-testid="options-workspace">
          {l10n.t("Set for this workspace (changes are saved there): {0}", options.workspaceFields.map((f) => `kiln.${OPTION_SETTING[f]}`).join(", "))}
        </p>
      )}
      <form
        className="ks-options"
        data-testid="options-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label>
          <span>
            {optionLabel("mode")}
            {where("mode")}
          </span>
          <select data-testid="options-mode" value={options.mode} onChange={(e) => save({ mode: e.target.value })}>
            {!known && <option value={options.mode}>{options.mode}</option>}
            {modes.map((m) => (
              <option key={m.slug} value={m.slug}>
                {m.label ?? m.name} ({m.slug})
              </option>
            ))}
          </select>
        </label>
        <FieldError error={error} field="mode" />
        <label className="ks-check">
          <input type="checkbox" data-testid="options-requireTodosDone" checked={options.requireTodosDone} onChange={(e) => save({ requireTodosDone: e.target.checked })} />
          {l10n.t("Refuse attempt_completion while the todo list has open items")}
          {where("requireTodosDone")}
        </label>
        <FieldError error={error} field="requireTodosDone" />
        {GROUPS.map((group) => (
          <fieldset key={group.group} className="ks-limits">
            <legend>{groupTitle(group.group)}</legend>
            {group.fields.map(({ field, numeric }) => (
              <div key={field}>
                <label>
                  <span>
                    {optionLabel(field)}
                    {where(field)}
                  </span>
                  <input
                    data-testid={`options-${field}`}
                    inputMode={numeric ? (field === "fuzzyThreshold" || field === "budgetMaxCost" ? "decimal" : "numeric") : undefined}
                    value={drafts[field]}
                    onChange={(e) => setDrafts({ ...drafts, [field]: e.target.value })}
                  />
                </label>
                <FieldError error={error} field={field} />
              </div>
            ))}
          </fieldset>
        ))}
        <FieldError error={error} field="options" />
        <div className="ks-actions">
          <button type="submit" data-testid="save-options" disabled={!dirty}>
            {l10n.t("Save limits and tools")}
          </button>
          <button type="button" className="secondary" disabled={!dirty} onClick={() => (setDrafts(draftsOf(options)), setLocal(undefined))}>
            {l10n.t("Undo edits")}
          </button>
        </div>
      </form>
    </section>
  );
}
