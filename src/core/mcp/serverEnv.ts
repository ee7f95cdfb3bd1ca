import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";

/**
 * Inherited beyond the SDK's base (HOME, PATH, USER, SHELL, TERM, LOGNAME; Windows' own set): what a
 * server needs to reach the network where a proxy stands in the way (and the proxy's certificates),
 * to speak the user's locale, and to find a temp folder.
 */
const PASSED_THROUGH = /^(?:(?:HTTPS?|ALL|NO)_PROXY|LANG|LANGUAGE|LC_\w+|TZ|TMPDIR|TEMP|TMP|NODE_EXTRA_CA_CERTS|SSL_CERT_(?:FILE|DIR)|PATHEXT|COMSPEC)$/i;

/** Names of variables that usually hold a credential; never inherited, even when a pattern above matches. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;

/**
 * The environment a stdio server starts with: the SDK's safe base, the proxy, locale and temp
 * variables, and what its config entry declares in `env`. The rest of the user's environment (API
 * keys, cloud tokens) stays out: a server gets a credential only where its entry names it
 * (`"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"`).
 */
export function stdioServerEnv(declared: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = getDefaultEnvironment();
  for (const [name, value] of Object.entries(process.env)) {
    // A value starting "()" is an exported shell function, which the SDK's base refuses too.
    if (value !== undefined && !value.startsWith("()") && PASSED_THROUGH.test(name) && !SECRET_NAME.test(name)) out[name] = value;
  }
  return { ...out, ...declared };
}
