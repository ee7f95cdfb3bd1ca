/**
 * One description of a tool's parameters serves three uses: the XML section of the system prompt,
 * the JSON schema for native tool calls, and coercion + validation of the text values both
 * protocols deliver ("3" -> 3; "false" -> false, never Boolean("false") === true).
 */
interface Base<Optional extends boolean> {
  description: string;
  optional: Optional;
}
export interface StringParam<O extends boolean = boolean> extends Base<O> {
  kind: "string";
  enum?: readonly string[];
  /** Keep the value exactly as sent (file contents); others are trimmed. */
  raw?: boolean;
}
export interface IntegerParam<O extends boolean = boolean> extends Base<O> {
  kind: "integer";
  min?: number;
  max?: number;
}
export interface BooleanParam<O extends boolean = boolean> extends Base<O> {
  kind: "boolean";
}
export type ParamSpec = StringParam | IntegerParam | BooleanParam;
export type ParamSpecs = Record<string, ParamSpec>;

type ValueOf<P> = P extends StringParam ? string : P extends IntegerParam ? number : P extends BooleanParam ? boolean : never;
type OptionalKeys<S extends ParamSpecs> = { [K in keyof S]: S[K]["optional"] extends true ? K : never }[keyof S];
type RequiredKeys<S extends ParamSpecs> = Exclude<keyof S, OptionalKeys<S>>;
export type ArgsOf<S extends ParamSpecs> = { [K in RequiredKeys<S>]: ValueOf<S[K]> } & { [K in OptionalKeys<S>]?: ValueOf<S[K]> };

type Opt = { optional?: boolean };
type Out<O extends Opt> = O["optional"] extends true ? true : false;

export const p = {
  string<O extends Opt & { enum?: readonly string[]; raw?: boolean }>(description: string, options?: O): StringParam<Out<O>> {
    return { kind: "string", description, optional: (options?.optional ?? false) as Out<O>, enum: options?.enum, raw: options?.raw };
  },
  integer<O extends Opt & { min?: number; max?: number }>(description: string, options?: O): IntegerParam<Out<O>> {
    return { kind: "integer", description, optional: (options?.optional ?? false) as Out<O>, min: options?.min, max: options?.max };
  },
  boolean<O extends Opt>(description: string, options?: O): BooleanParam<Out<O>> {
    return { kind: "boolean", description, optional: (options?.optional ?? false) as Out<O> };
  },
};

export type CoerceResult<T> = { ok: true; args: T } | { ok: false; errors: string[] };

/** Text values (or JSON values from a native call, already turned to text) -> typed arguments. */
export function coerceArgs<S extends ParamSpecs>(specs: S, raw: Record<string, string>): CoerceResult<ArgsOf<S>> {
  const errors: string[] = [];
  const args: Record<string, unknown> = {};
  for (const name of Object.keys(raw)) {
    if (!(name in specs)) errors.push(`Unknown parameter <${name}>. This tool takes: ${Object.keys(specs).join(", ")}.`);
  }
  for (const [name, spec] of Object.entries(specs)) {
    const value = raw[name];
    const text = value === undefined ? undefined : spec.kind === "string" && spec.raw ? value : value.trim();
    if (text === undefined || (text === "" && spec.kind !== "string")) {
      if (!spec.optional) errors.push(`Missing required parameter <${name}> (${spec.description}).`);
      continue;
    }
    switch (spec.kind) {
      case "string":
        if (!spec.optional && text.trim() === "" && !spec.raw) {
          errors.push(`Parameter <${name}> must not be empty.`);
        } else if (spec.enum && !spec.enum.includes(text)) {
          errors.push(`Parameter <${name}> must be one of ${spec.enum.join(", ")}; got "${text.slice(0, 60)}".`);
        } else {
          args[name] = text;
        }
        break;
      case "integer": {
        const n = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
        if (!Number.isSafeInteger(n)) errors.push(`Parameter <${name}> must be a whole number; got "${text.slice(0, 60)}".`);
        else if (spec.min !== undefined && n < spec.min) errors.push(`Parameter <${name}> must be at least ${spec.min}; got ${n}.`);
        else if (spec.max !== undefined && n > spec.max) errors.push(`Parameter <${name}> must be at most ${spec.max}; got ${n}.`);
        else args[name] = n;
        break;
      }
      case "boolean": {
        const lower = text.toLowerCase();
        if (lower === "true") args[name] = true;
        else if (lower === "false") args[name] = false;
        else errors.push(`Parameter <${name}> must be true or false; got "${text.slice(0, 60)}".`);
        break;
      }
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, args: args as ArgsOf<S> };
}

export function toJsonSchema(specs: ParamSpecs): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    if (!spec.optional) required.push(name);
    switch (spec.kind) {
      case "string":
        properties[name] = { type: "string", description: spec.description, ...(spec.enum ? { enum: spec.enum } : {}) };
        break;
      case "integer":
        properties[name] = { type: "integer", description: spec.description, ...(spec.min !== undefined ? { minimum: spec.min } : {}), ...(spec.max !== undefined ? { maximum: spec.max } : {}) };
        break;
      case "boolean":
        properties[name] = { type: "boolean", description: spec.description };
        break;
    }
  }
  return { type: "object", properties, required, additionalProperties: false };
}

/** The usage block for the XML section of the system prompt. */
export function toXmlUsage(toolName: string, specs: ParamSpecs): string {
  const lines = Object.entries(specs).map(([name, spec]) => {
    const rule = spec.kind === "integer" ? " (a whole number)" : spec.kind === "boolean" ? " (true or false)" : "";
    return `- ${name} (${spec.optional ? "optional" : "required"}): ${spec.description}${rule}`;
  });
  const example = Object.keys(specs)
    .map((name) => `<${name}>…</${name}>`)
    .join("\n");
  return `Parameters:\n${lines.join("\n")}\nUsage:\n<${toolName}>\n${example}\n</${toolName}>`;
}
