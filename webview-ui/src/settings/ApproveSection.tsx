import { useEffect, useState } from "react";
import type { ApproveField, AutoApproveChanges, AutoApproveView } from "../../../src/shared/protocol/settings";
import { send } from "./api";
import type { Result, SettingsAsk } from "./model";
import { useLatestAnswer } from "./useSaveRequest";

/** The categories in the order a user thinks of them, with what each lets run unasked. */
const CATEGORIES = [
  ["read", "Read files in the workspace"],
  ["read-outside", "Read files outside the workspace"],
  ["edit", "Edit files in the workspace"],
  ["write-outside", "Edit files outside the workspace"],
  ["write-protected", "Edit protected files (.kilocode, .vscode, AGENTS.md…)"],
  ["delete", "Delete files"],
  ["command", "Run commands (allowed prefixes below)"],
  ["browser", "Use the browser"],
  ["mcp", "Use MCP tools"],
  ["mode", "Switch modes"],
  ["subtask", "Start subtasks"],
  ["todo", "Update the todo list"],
] as const;

const FIELD_NAMES: Record<ApproveField, string> = {
  words: "categories",
  enabled: "on/off",
  allowed: "allowed commands",
  denied: "denied commands",
  refuseDenied: "refuse denied",
  maxRequests: "max requests",
  maxCost: "max cost",
};

type Send = (changes: AutoApproveChanges) => void;

function FieldError({ result, field }: { result: Result | undefined; field: string }) {
  if (!result || result.ok || result.field !== field) return null;
  return (
    <div className="ks-field-error" role="alert" data-testid={`approve-error-${field}`}>
      {result.message}
    </div>
  );
}

/** A list of command prefixes: each with Remove, and a box to add one (Enter or the Add button). */
function PrefixList({ field, title, values, save, result }: { field: "allowed" | "denied"; title: string; values: string[]; save: Send; result: Result | undefined }) {
  const [draft, setDraft] = useState("");
  const add = () => {
    const value = draft.trim();
    if (value === "") return;
    if (!values.includes(value)) save({ [field]: [...values, value] });
    setDraft("");
  };
  return (
    <fieldset className="ks-prefixes" data-testid={`prefixes-${field}`}>
      <legend>{title}</legend>
      <ul className="ks-list">
        {values.map((v) => (
          <li key={v} className="ks-prefix" data-testid="prefix">
            <code>{v}</code>
            <button type="button" className="secondary" aria-label={`Remove ${v} from ${title}`} onClick={() => save({ [field]: values.filter((x) => x !== v) })}>
              Remove
            </button>
          </li>
        ))}
        {values.length === 0 && <li className="ks-muted">(none)</li>}
      </ul>
      <div className="ks-actions">
        <input
          aria-label={`New prefix for ${title}`}
          placeholder="e.g. npm run build"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" disabled={draft.trim() === ""} onClick={add}>
          Add
        </button>
      </div>
      <FieldError result={result} field={field} />
    </fieldset>
  );
}

/** Max requests and max cost: checked here (whole number / number, 0 or more) and again by the host. */
function Limits({ approve, save, result }: { approve: AutoApproveView; save: Send; result: Result | undefined }) {
  const [requests, setRequests] = useState(String(approve.maxRequests));
  const [cost, setCost] = useState(String(approve.maxCost));
  const [local, setLocal] = useState<Result | undefined>();
  // A change made elsewhere (settings.json, another window) replaces what the boxes show.
  useEffect(() => setRequests(String(approve.maxRequests)), [approve.maxRequests]);
  useEffect(() => setCost(String(approve.maxCost)), [approve.maxCost]);
  const submit = () => {
    const maxRequests = Number(requests.trim());
    const maxCost = Number(cost.trim());
    if (requests.trim() === "" || !Number.isInteger(maxRequests) || maxRequests < 0) {
      setLocal({ ok: false, field: "maxRequests", message: "Max requests must be a whole number, 0 or more" });
    } else if (cost.trim() === "" || !Number.isFinite(maxCost) || maxCost < 0) {
      setLocal({ ok: false, field: "maxCost", message: "Max cost must be a number, 0 or more" });
    } else {
      setLocal(undefined);
      save({ maxRequests, maxCost });
    }
  };
  const error = local ?? result;
  return (
    <form
      className="ks-limits"
      data-testid="approve-limits"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label>
        Max auto-approved requests per task (0: no limit)
        <input data-testid="field-maxRequests" inputMode="numeric" value={requests} onChange={(e) => setRequests(e.target.value)} />
      </label>
      <FieldError result={error} field="maxRequests" />
      <label>
        Max cost per task in USD (0: no limit)
        <input data-testid="field-maxCost" inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} />
      </label>
      <FieldError result={error} field="maxCost" />
      <div className="ks-actions">
        <button type="submit" data-testid="save-limits">
          Save limits
        </button>
      </div>
    </form>
  );
}

/** The kiln.autoApprove* settings as controls; each change is written by the host at once. */
export function ApproveSection({ approve, ask }: { approve: AutoApproveView; ask: SettingsAsk }) {
  const [answer, track] = useLatestAnswer();
  const save: Send = (changes) => track(ask("settings/setAutoApprove", { changes }));
  const toggle = (word: (typeof CATEGORIES)[number][0], on: boolean) => save({ words: on ? [...approve.words, word] : approve.words.filter((w) => w !== word) });
  const inWorkspace = (field: ApproveField) => approve.workspaceFields.includes(field);
  return (
    <section className="ks-section" aria-labelledby="ks-approve" data-testid="approve-section">
      <h2 id="ks-approve">Auto-approve</h2>
      <p className="ks-hint">What runs without asking. Protected files and denied commands always ask unless allowed here.</p>
      {approve.workspaceFields.length > 0 && (
        <p className="ks-hint" data-testid="approve-workspace">
          Set for this workspace (changes are saved there): {approve.workspaceFields.map((f) => FIELD_NAMES[f]).join(", ")}
        </p>
      )}
      <label className="ks-check ks-switch">
        <input type="checkbox" data-testid="approve-enabled" checked={approve.enabled} onChange={(e) => save({ enabled: e.target.checked })} />
        Auto-approve is on {inWorkspace("enabled") && <span className="ks-muted">(workspace)</span>}
      </label>
      <FieldError result={answer} field="enabled" />
      <fieldset className="ks-categories">
        <legend>Run without asking{approve.enabled ? "" : " (auto-approve is off: every call asks)"}</legend>
        {CATEGORIES.map(([word, label]) => (
          <label key={word} className="ks-check">
            <input type="checkbox" data-testid={`approve-${word}`} checked={approve.words.includes(word)} onChange={(e) => toggle(word, e.target.checked)} />
            {label}
          </label>
        ))}
      </fieldset>
      <FieldError result={answer} field="words" />
      <PrefixList field="allowed" title="Allowed command prefixes" values={approve.allowed} save={save} result={answer} />
      <PrefixList field="denied" title="Denied command prefixes" values={approve.denied} save={save} result={answer} />
      <label className="ks-check">
        <input type="checkbox" data-testid="approve-refuseDenied" checked={approve.refuseDenied} onChange={(e) => save({ refuseDenied: e.target.checked })} />
        Refuse denied commands outright instead of asking (for unattended runs)
      </label>
      <FieldError result={answer} field="refuseDenied" />
      <Limits approve={approve} save={save} result={answer} />
      <button type="button" className="secondary" onClick={() => send({ type: "settings/openAutoApprove" })}>
        Open in VS Code settings
      </button>
    </section>
  );
}
