import { MAX_FIELD_OPTIONS, MAX_FIELD_TEXT, MAX_FORM_FIELDS, MAX_OPTION_CHARS, type FormField } from "../../shared/protocol/mcpRequests";
import { cap } from "./format";
import { McpRequestRefused } from "./requests";

/**
 * elicitation/create in form mode: the server's requestedSchema (a flat object of text, number,
 * boolean and choice fields) becomes the fields the chat's form shows. Anything else is refused
 * with the reason, since a form that cannot show a field cannot answer for it.
 */

const MESSAGE_CHARS = 4_000;
const NAME_CHARS = 200;
const TITLE_CHARS = 500;
const DESCRIPTION_CHARS = 2_000;
const FORMATS = new Set(["email", "uri", "date", "date-time"]);
const SUPPORTED = "Kiln's forms take flat text, number, integer, boolean and choice fields";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number) => (typeof v === "string" ? cap(v, max) : undefined);
const number = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

function refuse(name: string, why: string): never {
  throw new McpRequestRefused(`Kiln cannot show the form: field "${cap(name, NAME_CHARS)}" ${why}. ${SUPPORTED}.`);
}

/** The choices of `enum` (with the legacy enumNames as labels) or of `oneOf`/`anyOf` {const, title}. */
function options(name: string, schema: Json): { value: string; label: string }[] | undefined {
  let list: { value: string; label: string }[] | undefined;
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    list = schema.enum.map((v, i) => {
      if (typeof v !== "string") refuse(name, "has a choice that is not text");
      return { value: v, label: typeof names[i] === "string" ? names[i] : v };
    });
  } else {
    const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
    list = titled?.map((o) => {
      if (!isObject(o) || typeof o.const !== "string") refuse(name, "has a choice that is not text");
      return { value: o.const, label: typeof o.title === "string" ? o.title : o.const };
    });
  }
  if (list && list.length > MAX_FIELD_OPTIONS) refuse(name, `has ${list.length} choices (at most ${MAX_FIELD_OPTIONS})`);
  // A value is sent back as it is, so it is never cut: a choice too long to show is refused.
  if (list?.some((o) => o.value.length > MAX_OPTION_CHARS)) refuse(name, `has a choice longer than ${MAX_OPTION_CHARS} characters`);
  return list?.map((o) => ({ value: o.value, label: cap(o.label, TITLE_CHARS) }));
}

function field(name: string, schema: unknown, required: boolean): FormField {
  if (!isObject(schema)) refuse(name, "has no schema");
  const base = {
    name,
    required,
    ...(text(schema.title, TITLE_CHARS) !== undefined ? { title: text(schema.title, TITLE_CHARS) } : {}),
    ...(text(schema.description, DESCRIPTION_CHARS) !== undefined ? { description: text(schema.description, DESCRIPTION_CHARS) } : {}),
  };
  switch (schema.type) {
    case "string": {
      const choices = options(name, schema);
      if (choices) {
        const fallback = typeof schema.default === "string" && choices.some((c) => c.value === schema.default) ? { default: schema.default } : {};
        return { ...base, kind: "select", options: choices, ...fallback };
      }
      const format = typeof schema.format === "string" ? schema.format : undefined;
      if (format !== undefined && !FORMATS.has(format)) refuse(name, `has the format "${cap(format, 50)}"`);
      return {
        ...base,
        kind: "text",
        ...(format ? { format: format as "email" | "uri" | "date" | "date-time" } : {}),
        ...(count(schema.minLength) !== undefined ? { minLength: count(schema.minLength) } : {}),
        ...(count(schema.maxLength) !== undefined ? { maxLength: count(schema.maxLength) } : {}),
        ...(typeof schema.default === "string" && schema.default.length <= MAX_FIELD_TEXT ? { default: schema.default } : {}),
      };
    }
    case "number":
    case "integer":
      return {
        ...base,
        kind: "number",
        integer: schema.type === "integer",
        ...(number(schema.minimum) !== undefined ? { minimum: number(schema.minimum) } : {}),
        ...(number(schema.maximum) !== undefined ? { maximum: number(schema.maximum) } : {}),
        ...(number(schema.default) !== undefined ? { default: number(schema.default) } : {}),
      };
    case "boolean":
      return { ...base, kind: "boolean", ...(typeof schema.default === "boolean" ? { default: schema.default } : {}) };
    case "array": {
      const choices = isObject(schema.items) ? options(name, schema.items) : undefined;
      if (!choices) refuse(name, "is a list of something other than choices");
      const known = new Set(choices.map((c) => c.value));
      const fallback = Array.isArray(schema.default) && schema.default.every((v) => typeof v === "string" && known.has(v)) ? { default: schema.default as string[] } : {};
      return {
        ...base,
        kind: "multiselect",
        options: choices,
        ...(count(schema.minItems) !== undefined ? { minItems: count(schema.minItems) } : {}),
        ...(count(schema.maxItems) !== undefined ? { maxItems: count(schema.maxItems) } : {}),
        ...fallback,
      };
    }
    default:
      refuse(name, `has the type ${JSON.stringify(schema.type ?? "(none)").slice(0, 50)}`);
  }
}

/** The form's fields in the schema's order, or McpRequestRefused naming the first it cannot show. */
export function formFieldsFrom(requestedSchema: unknown): FormField[] {
  if (!isObject(requestedSchema) || requestedSchema.type !== "object" || !isObject(requestedSchema.properties)) {
    throw new McpRequestRefused(`Kiln cannot show the form: its schema is not an object with properties. ${SUPPORTED}.`);
  }
  const names = Object.keys(requestedSchema.properties);
  if (names.length > MAX_FORM_FIELDS) throw new McpRequestRefused(`Kiln cannot show the form: it has ${names.length} fields (at most ${MAX_FORM_FIELDS}).`);
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((r): r is string => typeof r === "string") : []);
  return names.map((name) => {
    if (name.length > NAME_CHARS) refuse(name, `has a name longer than ${NAME_CHARS} characters`);
    return field(name, (requestedSchema.properties as Json)[name], required.has(name));
  });
}

/** The server's message, bounded for the chat. */
export function elicitationMessage(message: string): string {
  return cap(message, MESSAGE_CHARS);
}
