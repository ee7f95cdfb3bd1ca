import * as l10n from "@vscode/l10n";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { checkFormAnswer, type FormField, type McpRequestItem, type McpRequestStatus } from "../../../src/shared/protocol/mcpRequests";
import { send } from "../vscodeApi";
import { Collapsible } from "./Collapsible";
import "./mcpRequest.css";

type SamplingRequest = Extract<McpRequestItem["request"], { kind: "sampling" }>;
/** What a field's control holds: text and numbers as typed, choices as picked. */
type RawValue = string | boolean | string[];

/** The request's state as its badge reads, and the badge's colour (as a tool card's). */
function statusBadge(status: McpRequestStatus): { label: string; tone: string } {
  switch (status) {
    case "waiting":
      return { label: l10n.t("waiting"), tone: "waiting" };
    case "approved":
      return { label: l10n.t("running"), tone: "running" };
    case "answered":
      return { label: l10n.t("answered"), tone: "done" };
    case "declined":
      return { label: l10n.t("declined"), tone: "denied" };
    case "failed":
      return { label: l10n.t("failed"), tone: "error" };
  }
}

/**
 * An MCP server's request: a prompt it wants run through the user's model (Approve / Reject), or
 * a form it wants filled in (Submit / Decline / Cancel). Once answered it shows what was sent back.
 */
export function McpRequestCard({ item }: { item: McpRequestItem }) {
  const waiting = item.status === "waiting";
  const request = item.request;
  const status = statusBadge(item.status);
  return (
    <div className="message tool mcp-request" data-testid="mcp-request" data-kind={request.kind} data-status={item.status} data-card={item.id}>
      <div className="tool-title">
        <span className="tool-name">{request.kind === "sampling" ? l10n.t("Sampling request") : l10n.t("Form")}</span>
        <span className="tool-target"> {l10n.t("from {0}", item.server)}</span>{" "}
        <span className={`tool-status status-${status.tone}`} data-testid="mcp-request-status">
          {status.label}
        </span>
      </div>
      {request.kind === "sampling" ? <Sampling id={item.id} server={item.server} request={request} waiting={waiting} /> : <div className="mcp-explain">{request.message}</div>}
      {request.kind === "elicitation" && waiting && <ElicitationForm id={item.id} fields={request.fields} />}
      {item.result !== undefined && item.result !== "" && (
        <Collapsible className="tool-result" testId="mcp-request-result" autoOpen={item.status !== "declined"} summary={resultTitle(item)}>
          {() => <pre>{item.result}</pre>}
        </Collapsible>
      )}
    </div>
  );
}

function resultTitle(item: McpRequestItem): string {
  if (item.status === "failed") return l10n.t("Error");
  if (item.status === "declined") return l10n.t("Declined");
  return item.request.kind === "sampling" ? l10n.t("The model's answer") : l10n.t("Sent");
}

function Sampling({ id, server, request, waiting }: { id: string; server: string; request: SamplingRequest; waiting: boolean }) {
  const approveRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Keyboard first, as on tool cards, unless the user is typing somewhere.
    const typing = document.activeElement instanceof HTMLTextAreaElement || document.activeElement instanceof HTMLInputElement;
    if (waiting && !typing) approveRef.current?.focus();
  }, [waiting]);
  const answer = (approved: boolean) => send({ type: "chat/mcpAnswer", id, answer: { kind: "sampling", approved } });
  return (
    <div className="mcp-sampling">
      <div className="mcp-explain">
        {request.maxTokens === 1
          ? l10n.t("{0} asks to run this prompt through your model (at most 1 token).", server)
          : l10n.t("{0} asks to run this prompt through your model (at most {1} tokens).", server, request.maxTokens)}
      </div>
      {request.systemPrompt !== undefined && <SamplingMessage role={l10n.t("System prompt")} text={request.systemPrompt} />}
      {request.messages.map((m, i) => (
        <SamplingMessage key={i} role={m.role === "user" ? l10n.t("User") : l10n.t("Assistant")} text={m.text} />
      ))}
      {waiting && (
        <div className="approval-actions">
          <button ref={approveRef} data-testid="mcp-approve" onClick={() => answer(true)}>
            {l10n.t("Approve")}
          </button>
          <button className="secondary" data-testid="mcp-reject" onClick={() => answer(false)}>
            {l10n.t("Reject")}
          </button>
        </div>
      )}
    </div>
  );
}

function SamplingMessage({ role, text }: { role: string; text: string }) {
  return (
    <div className="mcp-message" data-testid="mcp-sampling-message">
      <div className="mcp-role">{role}</div>
      <pre>{text}</pre>
    </div>
  );
}

function initialValue(field: FormField): RawValue {
  switch (field.kind) {
    case "boolean":
      return field.default ?? false;
    case "multiselect":
      return field.default ?? [];
    case "number":
      return field.default === undefined ? "" : String(field.default);
    default:
      return field.default ?? "";
  }
}

/** The form's values as the server's types: numbers parsed, blank fields left out. */
function typedValues(fields: readonly FormField[], values: Record<string, RawValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name];
    if (raw === undefined || raw === "") continue;
    out[field.name] = field.kind === "number" && typeof raw === "string" ? Number(raw.trim()) : raw;
  }
  return out;
}

function ElicitationForm({ id, fields }: { id: string; fields: readonly FormField[] }) {
  const [values, setValues] = useState<Record<string, RawValue>>(() => Object.fromEntries(fields.map((f) => [f.name, initialValue(f)])));
  const [errors, setErrors] = useState<string[]>([]);
  const reply = (action: "decline" | "cancel") => send({ type: "chat/mcpAnswer", id, answer: { kind: "elicitation", action } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = checkFormAnswer(fields, typedValues(fields, values));
    if (!check.ok) return setErrors(check.errors);
    setErrors([]);
    send({ type: "chat/mcpAnswer", id, answer: { kind: "elicitation", action: "accept", content: check.content } });
  };
  return (
    // noValidate: the form's own check says what is wrong in words, the same check the host runs.
    <form className="mcp-form" data-testid="mcp-form" noValidate onSubmit={submit}>
      {fields.map((field) => (
        <FieldInput key={field.name} field={field} value={values[field.name]!} onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))} />
      ))}
      {errors.length > 0 && (
        <ul className="mcp-form-errors" role="alert" data-testid="mcp-form-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <div className="approval-actions">
        <button type="submit" data-testid="mcp-submit">
          {l10n.t("Submit")}
        </button>
        <button type="button" className="secondary" data-testid="mcp-decline" onClick={() => reply("decline")}>
          {l10n.t("Decline")}
        </button>
        <button type="button" className="secondary" data-testid="mcp-cancel" onClick={() => reply("cancel")}>
          {l10n.t("Cancel")}
        </button>
      </div>
    </form>
  );
}

const INPUT_TYPES = { email: "email", uri: "url", date: "date", "date-time": "text" } as const;

function FieldInput({ field, value, onChange }: { field: FormField; value: RawValue; onChange(value: RawValue): void }) {
  const id = useId();
  const label = (
    <>
      {field.title || field.name}
      {field.required && <span aria-hidden="true"> *</span>}
    </>
  );
  const described = field.description ? `${id}-description` : undefined;
  const description = field.description && (
    <div className="mcp-field-description" id={described}>
      {field.description}
    </div>
  );
  const common = { id, "data-testid": `mcp-field-${field.name}`, "aria-required": field.required, "aria-describedby": described };
  if (field.kind === "multiselect") {
    const picked = Array.isArray(value) ? value : [];
    return (
      <fieldset className="mcp-field" data-testid={`mcp-field-${field.name}`} aria-describedby={described}>
        <legend>{label}</legend>
        {field.options.map((o) => (
          <label key={o.value} className="mcp-choice">
            <input type="checkbox" checked={picked.includes(o.value)} onChange={(e) => onChange(e.target.checked ? [...picked, o.value] : picked.filter((p) => p !== o.value))} /> {o.label}
          </label>
        ))}
        {description}
      </fieldset>
    );
  }
  if (field.kind === "boolean") {
    return (
      <div className="mcp-field">
        <label className="mcp-choice">
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}
        </label>
        {description}
      </div>
    );
  }
  const text = typeof value === "string" ? value : "";
  return (
    <div className="mcp-field">
      <label htmlFor={id}>{label}</label>
      {field.kind === "select" ? (
        <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">{field.required ? l10n.t("Choose…") : l10n.t("(none)")}</option>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : field.kind === "number" ? (
        <input type="number" {...common} step={field.integer ? 1 : "any"} min={field.minimum} max={field.maximum} value={text} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          type={field.format ? INPUT_TYPES[field.format] : "text"}
          {...common}
          placeholder={field.format === "date-time" ? "2025-01-31T12:00:00Z" : undefined}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {description}
    </div>
  );
}
