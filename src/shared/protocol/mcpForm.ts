import type { NewServer } from "../mcpView";
import type { McpServerForm } from "./mcp";

// Apart from mcp.ts so the page can use it without bundling zod.

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The checks both sides make of the form before the host's full check (the file loader's rules):
 * the page to answer at once, the host because the page cannot be trusted.
 */
export function checkServerForm(form: McpServerForm): { ok: true; server: NewServer } | { ok: false; field: string; message: string } {
  const name = form.name.trim();
  if (!name) return { ok: false, field: "name", message: "a server needs a name" };
  // Env is for the process Kiln starts; a remote server ignores it, so the form shows it for stdio only.
  const env: Record<string, string> = {};
  for (const { name: variable, value } of form.env) {
    if (!ENV_NAME.test(variable)) return { ok: false, field: "env", message: `"${variable}" is not a variable name (letters, digits and _, not starting with a digit)` };
    if (variable in env) return { ok: false, field: "env", message: `${variable} is set twice` };
    env[variable] = value;
  }
  if (form.transport === "stdio") {
    const command = form.command.trim();
    if (!command) return { ok: false, field: "command", message: "a local (stdio) server needs the command that starts it" };
    return { ok: true, server: { name, transport: "stdio", command, args: form.args, env } };
  }
  const url = form.url.trim();
  if (!/^https?:\/\/\S+$/i.test(url)) return { ok: false, field: "url", message: "a remote server needs an http:// or https:// URL" };
  return { ok: true, server: { name, transport: form.transport, url } };
}
