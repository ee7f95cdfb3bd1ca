import * as l10n from "@vscode/l10n";
import { useEffect, useState } from "react";
import type { ApproveField, AutoApproveChanges, AutoApproveView } from "../../../src/shared/protocol/settings";
import { send } from "./api";
import { FieldError } from "./FieldError";
import type { Result, SettingsAsk } from "./model";
import { useLatestAnswer } from "./useSaveRequest";

/** The categories in the order a user thinks of them. */
const CATEGORIES = ["read", "read-outside", "edit", "write-outside", "write-protected", "delete", "command", "browser", "mcp", "mode", "subtask", "todo"] as const;
type Category = (typeof CATEGORIES)[number];

/** What a category lets run unasked; translated when drawn (the bundle is set after the modules load). */
function categoryLabel(word: Category): string {
  switch (word) {
    case "read":
      return l10n.t("Read files in the workspace");
    case "read-outside":
      return l10n.t("Read files outside the workspace");
    case "edit":
      return l10n.t("Edit files in the workspace");
    case "write-outside":
      return l10n.t("Edit files outside the workspace");
    case "write-protected":
      return l10n.t("Edit protected files (.kilocode, .vscode, AGENTS.md…)");
    case "delete":
      return l10n.t("Delete files");
    case "command":
      return l10n.t("Run commands (allowed prefixes below)");
    case "browser":
      return l10n.t("Use the browser");
    case "mcp":
      return l10n.t("Use MCP tools");
    case "mode":
      return l10n.t("Switch modes");
    case "subtask":
      return l10n.t("Start subtasks");
    case "todo":
      return l10n.t("Update the todo list");
  }
}

/** A setting's short name in the "set for this workspace" list. */
function fieldName(field: ApproveField): string {
  switch (field) {
    case "words":
      return l10n.t("categories");
    case "enabled":
      return l10n.t("on/off");
    case "allowed":
      return l10n.t("allowed commands");
    case "denied":
      return l10n.t("denied commands");
    case "refuseDenied":
      return l10n.t("refuse denied");
    case "maxRequests":
      return l10n.t("max requests");
    case "maxCost":
      return l10n.t("max cost");
  }
}

/** A prefix list's words: each list has its own messages, so a translation can inflect the list's name. */
function prefixTexts(field: "allowed" | "denied"): { title: string; remove: (prefix: string) => string; add: string } {
  return field === "allowed"
    ? {
        title: l10n.t("Allowed command prefixes"),
        remove: (prefix) => l10n.t("Remove {0} from Allowed command prefixes", prefix),
        add: l10n.t("New prefix for Allowed command prefixes"),
      }
    : {
        title: l10n.t("Denied command prefixes"),
        remove: (prefix) => l10n.t("Remove {0} from Denied command prefixes", prefix),
        add: l10n.t("New prefix for Denied command prefixes"),
      };
}

type Send = (changes: AutoApproveChanges) => void;

/** A list of command prefixes: each with Remove, and a box to add one (Enter or the Add button). */
function PrefixList({ field, values, save, result }: { field: "allowed" | "denied"; values: string[]; save: Send; result: Result | undefined }) {
  const [draft, setDraft] = useState("");
  const { title, remove, add: addLabel } = prefixTexts(field);
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
            <button type="button" className="secondary" aria-label={remove(v)} onClick={() => save({ [field]: values.filter((x) => x !== v) })}>
              {l10n.t("Remove")}
            </button>
          </li>
        ))}
        {values.length === 0 && <li className="ks-muted">{l10n.t("(none)")}</li>}
      </ul>
      <div className="ks-actions">
        <input
          aria-label={addLabel}
          placeholder={l10n.t("e.g. {0}", "npm run build")}
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
          {l10n.t("Add")}
        </button>
      </div>
      <FieldError prefix="approve" result={result} field={field} />
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
      setLocal({ ok: false, field: "maxRequests", message: l10n.t("Max requests must be a whole number, 0 or more") });
    } else if (cost.trim() === "" || !Number.isFinite(maxCost) || maxCost < 0) {
      setLocal({ ok: false, field: "maxCost", message: l10n.t("Max cost must be a number, 0 or more") });
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
        {l10n.t("Max auto-approved requests per task (0: no limit)")}
        <input data-testid="field-maxRequests" inputMode="numeric" value={requests} onChange={(e) => setRequests(e.target.value)} />
      </label>
      <FieldError prefix="approve" result={error} field="maxRequests" />
      <label>
        {l10n.t("Max cost per task in USD (0: no limit)")}
        <input data-testid="field-maxCost" inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} />
      </label>
      <FieldError prefix="approve" result={error} field="maxCost" />
      <div className="ks-actions">
        <button type="submit" data-testid="save-limits">
          {l10n.t("Save limits")}
        </button>
      </div>
    </form>
  );
}

/** The kiln.autoApprove* settings as controls; each change is written by the host at once. */
export function ApproveSection({ approve, ask }: { approve: AutoApproveView; ask: SettingsAsk }) {
  const [answer, track] = useLatestAnswer();
  const save: Send = (changes) => track(ask("settings/setAutoApprove", { changes }));
  const toggle = (word: Category, on: boolean) => save({ words: on ? [...approve.words, word] : approve.words.filter((w) => w !== word) });
  const inWorkspace = (field: ApproveField) => approve.workspaceFields.includes(field);
  return (
    <section className="ks-section" aria-labelledby="ks-approve" data-testid="approve-section">
      <h2 id="ks-approve">{l10n.t("Auto-approve")}</h2>
      <p className="ks-hint">
        {l10n.t("What runs without asking.")} {l10n.t("Protected files and denied commands always ask unless allowed here.")}
      </p>
      {approve.workspaceFields.length > 0 && (
        <p className="ks-hint" data-testid="approve-workspace">
          {l10n.t("Set for this workspace (changes are saved there): {0}", approve.workspaceFields.map(fieldName).join(", "))}
        </p>
      )}
      <label className="ks-check ks-switch">
        <input type="checkbox" data-testid="approve-enabled" checked={approve.enabled} onChange={(e) => save({ enabled: e.target.checked })} />
        {l10n.t("Auto-approve is on")} {inWorkspace("enabled") && <span className="ks-muted">{l10n.t("(workspace)")}</span>}
      </label>
      <FieldError prefix="approve" result={answer} field="enabled" />
      <fieldset className="ks-categories">
        <legend>{approve.enabled ? l10n.t("Run without asking") : l10n.t("Run without asking (auto-approve is off: every call asks)")}</legend>
        {CATEGORIES.map((word) => (
          <label key={word} className="ks-check">
            <input type="checkbox" data-testid={`approve-${word}`} checked={approve.words.includes(word)} onChange={(e) => toggle(word, e.target.checked)} />
            {categoryLabel(word)}
          </label>
        ))}
      </fieldset>
      <FieldError prefix="approve" result={answer} field="words" />
      <PrefixList field="allowed" values={approve.allowed} save={save} result={answer} />
      <PrefixList field="denied" values={approve.denied} save={save} result={answer} />
      <label className="ks-check">
        <input type="checkbox" data-testid="approve-refuseDenied" checked={approve.refuseDenied} onChange={(e) => save({ refuseDenied: e.target.checked })} />
        {l10n.t("Refuse denied commands outright instead of asking (for unattended runs)")}
      </label>
      <FieldError prefix="approve" result={answer} field="refuseDenied" />
      <Limits approve={approve} save={save} result={answer} />
      <button type="button" className="secondary" onClick={() => send({ type: "settings/openAutoApprove" })}>
        {l10n.t("Open in VS Code settings")}
      </button>
    </section>
  );
}
