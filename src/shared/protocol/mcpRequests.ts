import { z } from "zod";

/**
 * What an MCP server asks of the user through the chat: a sampling request (run a prompt through
 * Kiln's model) or an elicitation (fill in a form). The host builds the items; the webview shows
 * them and answers; the answer check below runs on both sides, so the form says what is wrong and
 * the host never passes on what the server did not ask for.
 */

/** Limits on what a server's form may hold (and so what an answer may), so the chat stays usable. */
export const MAX_FORM_FIELDS = 50;
export const MAX_FIELD_OPTIONS = 200;
export const MAX_OPTION_CHARS = 500;
export const MAX_FIELD_TEXT = 10_000;

const FieldBase = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean(),
});
const OptionSchema = z.object({ value: z.string(), label: z.string() });

export const FormFieldSchema = z.discriminatedUnion("kind", [
  FieldBase.extend({
    kind: z.literal("text"),
    format: z.enum(["email", "uri", "date", "date-time"]).optional(),
    minLength: z.number().int().min(0).optional(),
    maxLength: z.number().int().min(0).optional(),
    default: z.string().optional(),
  }),
  FieldBase.extend({
    kind: z.literal("number"),
    integer: z.boolean(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  FieldBase.extend({ kind: z.literal("boolean"), default: z.boolean().optional() }),
  FieldBase.extend({ kind: z.literal("select"), options: z.array(OptionSchema), default: z.string().optional() }),
  FieldBase.extend({
    kind: z.literal("multiselect"),
    options: z.array(OptionSchema),
    minItems: z.number().int().min(0).optional(),
    maxItems: z.number().int().min(0).optional(),
    default: z.array(z.string()).optional(),
  }),
]);
export type FormField = z.infer<typeof FormFieldSchema>;

export type FormValue = string | number | boolean | string[];
export type FormContent = Record<string, FormValue>;

/** waiting: for the user; approved: the model is answering a sampling request; the rest are final. */
export const McpRequestStatusSchema = z.enum(["waiting", "approved", "answered", "declined", "failed"]);
export type McpRequestStatus = z.infer<typeof McpRequestStatusSchema>;

export const McpRequestItemSchema = z.object({
  id: z.string(),
  role: z.literal("mcpRequest"),
  /** The server that asks. */
  server: z.string(),
  status: McpRequestStatusSchema,
  request: z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("sampling"),
      systemPrompt: z.string().optional(),
      /** As text; images and audio are named, not shown. */
      messages: z.array(z.object({ role: z.enum(["user", "assistant"]), text: z.string() })),
      maxTokens: z.number(),
    }),
    z.object({ kind: z.literal("elicitation"), message: z.string(), fields: z.array(FormFieldSchema) }),
  ]),
  /** Once done: the model's answer, what the user submitted, or why nothing was sent. */
  result: z.string().optional(),
});
export type McpRequestItem = z.infer<typeof McpRequestItemSchema>;

/** The user's answer from the chat, checked again by the host against the request. */
export const McpAnswerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sampling"), approved: z.boolean() }).strict(),
  z
    .object({
      kind: z.literal("elicitation"),
      action: z.enum(["accept", "decline", "cancel"]),
      content: z
        .record(z.string().max(200), z.union([z.string().max(MAX_FIELD_TEXT), z.number(), z.boolean(), z.array(z.string().max(MAX_OPTION_CHARS)).max(MAX_FIELD_OPTIONS)]))
        .refine((c) => Object.keys(c).length <= MAX_FORM_FIELDS, { message: "too many fields" })
        .optional(),
    })
    .strict(),
]);
export type McpAnswer = z.infer<typeof McpAnswerSchema>;

export type FormCheck = { ok: true; content: FormContent } | { ok: false; errors: string[] };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function labelOf(field: FormField): string {
  return `"${field.title || field.name}"`;
}

function checkFormat(format: NonNullable<Extract<FormField, { kind: "text" }>["format"]>, value: string): boolean {
  switch (format) {
    case "email":
      return EMAIL.test(value);
    case "uri":
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(value);
    case "date":
      return DATE.test(value) && !Number.isNaN(Date.parse(value));
    case "date-time":
      return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
  }
}

/** The problem with one present value, or undefined when it fits the field. */
function problemWith(field: FormField, value: unknown): string | undefined {
  const label = labelOf(field);
  const allowed = "options" in field ? new Set(field.options.map((o) => o.value)) : undefined;
  switch (field.kind) {
    case "text":
      if (typeof value !== "string") return `${label} must be text`;
      if (field.minLength !== undefined && value.length < field.minLength) return `${label} needs at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `${label} takes at most ${field.maxLength} characters`;
      if (field.format && !checkFormat(field.format, value))
        return `${label} must be ${field.format === "uri" ? "a URI" : field.format === "email" ? "an email address" : `a ${field.format} (${field.format === "date" ? "YYYY-MM-DD" : "YYYY-MM-DDThh:mm:ssZ"})`}`;
      return undefined;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return `${label} must be a number`;
      if (field.integer && !Number.isInteger(value)) return `${label} must be a whole number`;
      if (field.minimum !== undefined && value < field.minimum) return `${label} must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `${label} must be at most ${field.maximum}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${label} must be yes or no`;
    case "select":
      return typeof value === "string" && allowed!.has(value) ? undefined : `${label} must be one of the choices`;
    case "multiselect": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && allowed!.has(v))) return `${label} must be among the choices`;
      if (new Set(value).size !== value.length) return `${label} lists a choice twice`;
      if (field.minItems !== undefined && value.length < field.minItems) return `${label} needs at least ${field.minItems} choice${field.minItems === 1 ? "" : "s"}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `${label} takes at most ${field.maxItems} choices`;
      return undefined;
    }
  }
}

/** Empty text and an empty choice list count as not given: an optional field may stay blank. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

/**
 * Checks a submitted form against its fields: every required field given, every value of its
 * field's type and range, nothing the form did not ask for. Blank optional fields are left out.
 */
export function checkFormAnswer(fields: readonly FormField[], content: Record<string, unknown>): FormCheck {
  const errors: string[] = [];
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(content)) if (!byName.has(key)) errors.push(`the form has no field "${key}"`);
  const out: FormContent = {};
  for (const field of fields) {
    const value = Object.hasOwn(content, field.name) ? content[field.name] : undefined;
    if (isBlank(value)) {
      if (field.required) errors.push(`${labelOf(field)} is required`);
      continue;
    }
    const problem = problemWith(field, value);
    if (problem) errors.push(problem);
    else out[field.name] = value as FormValue;
  }
  return errors.length ? { ok: false, errors } : { ok: true, content: out };
}
