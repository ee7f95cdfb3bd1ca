/**
 * Variables never passed to a command: Kiln's own keys must not leak into a script or a log the
 * model reads. Broad on purpose (any *API_KEY*), since a command has no business with the user's keys
 * unless the user puts them there in their own shell profile.
 */
export const SECRET_ENV = /API_KEY|^KILN_/i;

export function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !SECRET_ENV.test(name)) out[name] = value;
  return out;
}
