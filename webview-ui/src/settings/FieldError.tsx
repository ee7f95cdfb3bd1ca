import type { Result } from "./model";

/** The host's (or the form's own) refusal of one field, under that field; nothing otherwise. */
export function FieldError({ result, field, prefix }: { result: Result | undefined; field: string; prefix: string }) {
  if (!result || result.ok || result.field !== field) return null;
  return (
    <div className="ks-field-error" role="alert" data-testid={`${prefix}-error-${field}`}>
      {result.message}
    </div>
  );
}
