import { useEffect, useState } from "react";
import { OPTION_SETTING, OptionChangesSchema, type ModeView, type OptionChanges, type OptionField, type OptionsView } from "../../../src/shared/protocol/settings";
import type { Result, SettingsAsk } from "./model";
import { useLatestAnswer } from "./useSaveRequest";

type TextField = Exclude<OptionField, "mode" | "requireTodosDone">;

/** The boxes, grouped as a user looks for them; each is saved with the form's one Save button. */
const GROUPS: { title: string; fields: { field: TextField; label: string; numeric: boolean }[] }[] = [
  {
    title: "Task",
    fields: [
      { field: "maxRequests", label: "Max model requests per task", numeric: true },
      { field: "retries", label: "Automatic retries of a failed request (0 to 10)", numeric: true },
    ],
  },
  {
    title: "Context",
    fields: [
      { field: "readFileMaxLines", label: "Lines read_file shows per file", numeric: true },
      { field: "toolResultMaxChars", label: "Characters of a tool result sent to the model (the rest is saved to a file)", numeric: true },
      { field: "autoCondensePercent", label: "Condense the conversation at this % of the model's window (0: never; the oldest turns are hidden instead)", numeric: true },
      { field: "shortenResultsAfter", label: "Send an old large tool result as a one-line note after this many newer ones (0: never)", numeric: true },
    ],
  },
  {
    title: "Budgets of a task (0: no limit)",
    fields: [
      { field: "budgetMaxTokens", label: "Tokens in all", numeric: true },
      { field: "budgetMaxCost", label: "Cost in USD (where the model's prices are known)", numeric: true },
      { field: "budgetMaxInputTokens", label: "Input tokens of one request", numeric: true },
    ],
  },
  { title: "Terminal", fields: [{ field: "outputMaxChars", label: "Characters of command output shown (head and tail)", numeric: true }] },
  { title: "Edits", fields: [{ field: "fuzzyThreshold", label: "apply_diff match threshold (0.8 to 1; 1: exact apart from whitespace)", numeric: true }] },
  { title: "Browser", fields: [{ field: "browserPath", label: "Browser executable (empty: found automatically)", numeric: false }] },
];
const TEXT_FIELDS = GROUPS.flatMap((g) => g.fields);
const LABELS = Object.fromEntries([...TEXT_FIELDS.map((f) => [f.field, f.label]), ["mode", "Default mode of new tasks"], ["requireTodosDone", "Require todos done"]]) as Record<OptionField, string>;

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
  return { error: { ok: false, field, message: `${LABELS[field as OptionField] ?? field} ${issue.message}` } };
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
  const where = (field: OptionField) => (options.workspaceFields.includes(field) ? <span className="ks-muted"> (workspace)</span> : null);
  const known = modes.some((m) => m.slug === options.mode);
  return (
    <section className="ks-section" aria-labelledby="ks-options" data-testid="options-section">
      <h2 id="ks-options">Limits and tools</h2>
      <p className="ks-hint">
        Defaults of new tasks, how much of files, tool results and command output reaches the model, and what a task may spend. Limits and budgets apply to the next request, also in a running task.
      </p>
      {options.workspaceFields.length > 0 && (
        <p className="ks-hint" data-testid="options-workspace">
          Set for this workspace (changes are saved there): {options.workspaceFields.map((f) => `kiln.${OPTION_SETTING[f]}`).join(", ")}
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
            {LABELS.mode}
            {where("mode")}
          </span>
          <select data-testid="options-mode" value={options.mode} onChange={(e) => save({ mode: e.target.value })}>
            {!known && <option value={options.mode}>{options.mode}</option>}
            {modes.map((m) => (
              <option key={m.slug} value={m.slug}>
                {m.name} ({m.slug})
              </option>
            ))}
          </select>
        </label>
        <FieldError error={error} field="mode" />
        <label className="ks-check">
          <input type="checkbox" data-testid="options-requireTodosDone" checked={options.requireTodosDone} onChange={(e) => save({ requireTodosDone: e.target.checked })} />
          Refuse attempt_completion while the todo list has open items{where("requireTodosDone")}
        </label>
        <FieldError error={error} field="requireTodosDone" />
        {GROUPS.map((group) => (
          <fieldset key={group.title} className="ks-limits">
            <legend>{group.title}</legend>
            {group.fields.map(({ field, label, numeric }) => (
              <div key={field}>
                <label>
                  <span>
                    {label}
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
            Save limits and tools
          </button>
          <button type="button" className="secondary" disabled={!dirty} onClick={() => (setDrafts(draftsOf(options)), setLocal(undefined))}>
            Undo edits
          </button>
        </div>
      </form>
    </section>
  );
}
