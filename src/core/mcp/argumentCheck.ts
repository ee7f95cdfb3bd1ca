import { Ajv, type ValidateFunction } from "ajv";

const ajv = new Ajv({ allErrors: true, strict: false });
/** Schemas repeat across calls of the same tool: compile each once. */
const compiled = new Map<string, ValidateFunction | Error>();

/**
 * Arguments checked against an MCP tool's input schema before the call, so the model gets an error
 * it can act on (the argument and the rule) instead of the server's. A schema that does not compile
 * is the server's problem: the call goes ahead and the server judges.
 */
export function checkArguments(schema: Record<string, unknown>, args: Record<string, unknown>): string | undefined {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (err) {
      validate = err instanceof Error ? err : new Error(String(err));
    }
    compiled.set(key, validate);
  }
  if (validate instanceof Error || validate(args)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `arguments${e.instancePath.replace(/\//g, ".")} ${e.message ?? "is not valid"}${e.params && "allowedValues" in e.params ? ` (${JSON.stringify(e.params.allowedValues)})` : ""}`)
    .join("; ");
}
