import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { ModesFileResult } from "./customModes";
import { MODE_SLUG, modeSchema } from "./modeSchema";
import type { GroupEntry, Mode } from "./modes";

/**
 * Kilo Code v7's agents (the extension rebuilt on the Kilo CLI, a fork of opencode) as Kiln modes.
 * An agent is a Markdown file, `.kilo/agents/<name>.md` in a project or `~/.config/kilo/agents/` for
 * the user, whose YAML front matter holds its settings and whose body is its prompt; the same
 * settings can sit in `kilo.jsonc` under `agent.<name>`, with the prompt in `prompt`. The project's
 * files are read in place by loadModes (a project shared with Kilo users keeps one source); the
 * global ones and the config's are imported (src/core/import/kiloV7.ts).
 *
 * Every agent becomes a mode, `mode: subagent` ones included: Kiln has no separate kind of agent
 * that only others may call, since its new_task starts a subtask in any mode, so a subagent is a
 * mode the orchestrator (or the user) picks. What Kiln has no place for (model, temperature, colour,
 * steps) is checked for its type and otherwise left out.
 */

/** The project's agent folder, relative to the workspace. */
export const KILO_AGENTS_FOLDER = join(".kilo", "agents");
/** Kilo reads an agent file whole into the prompt; one this big is no agent a person wrote. */
const AGENT_FILE_MAX_BYTES = 200_000;
const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const action = z.enum(["allow", "ask", "deny"]);
type Action = z.infer<typeof action>;
/** One tool's rule: an action, or glob patterns (a command, a path) each with an action; the last match wins. */
const rule = z.union([action, z.record(z.string(), action)]);
type Rule = z.infer<typeof rule>;

/** The fields Kiln reads; any other (hidden, color, steps, provider options…) is Kilo's alone and passes. */
export const kiloAgentSchema = z
  .object({
    name: z.string().trim().min(1).optional(),
    // null is Kilo's "unset" in a config that overrides another.
    description: z.string().nullish(),
    mode: z.enum(["primary", "subagent", "all"]).optional(),
    model: z.string().nullish(),
    temperature: z.number().nullish(),
    top_p: z.number().nullish(),
    prompt: z.string().nullish(),
    // Kilo's older switch per tool, still honoured by it: `write: false` and the like.
    tools: z.record(z.string(), z.boolean()).optional(),
    // One action for every tool, or a rule per tool name with "*" for the tools not named.
    permission: z.union([action, z.record(z.string(), rule)]).optional(),
    disable: z.boolean().optional(),
  })
  .passthrough();
export type KiloAgentConfig = z.infer<typeof kiloAgentSchema>;

// Worded for the person editing the file rather than zod's generic wording.
const FIELD_MESSAGES: Record<string, string> = {
  name: "must be a non-empty text",
  description: "must be a text",
  mode: 'must be "primary", "subagent" or "all"',
  model: "must be a text like provider/model",
  temperature: "must be a number",
  top_p: "must be a number",
  prompt: "must be a text",
  tools: "must map tool names to true or false",
  permission: 'must be "allow", "ask" or "deny", or map tool names to one of those (or to patterns that map to one)',
  disable: "must be true or false",
};

/** An agent turned into a mode; a disabled one gives no mode and no error. */
export type KiloAgentMode = { ok: true; mode: Mode } | { ok: true; disabled: true } | { ok: false; field: string; message: string };

/** "code-reviewer" → "Code Reviewer": the name Kilo would show for a file that gives none. */
export function titleFromSlug(slug: string): string {
  return slug
    .split("-")
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(" ");
}

/** The action a rule comes to for the whole tool, as far as a mode's all-or-nothing group can say it. */
function wholeToolAction(value: Rule): Action {
  if (typeof value === "string") return value;
  // Patterns: the catch-all decides. "Deny all but git log" cannot be said with a group, so it is
  // read as deny: the mode then lacks the tool rather than gaining more than the agent had.
  if (value["*"] !== undefined) return value["*"];
  const actions = Object.values(value);
  // Only some patterns named: the rest fall to the default, which allows.
  return actions.length > 0 && actions.every((a) => a === "deny") ? "deny" : "allow";
}

/**
 * The groups an agent gets, from its `tools` switches and `permission` rules the way Kilo merges
 * them (the switches first, then the rules over them; write, edit and patch all mean "edit").
 * Kiln's groups are all or nothing and its own approval settings decide what asks, so "ask" and
 * "allow" both keep a tool and only "deny" (or `false`) removes it:
 * - read: always; a mode that cannot read cannot do anything, and Kilo's read-only agents still read.
 * - edit: unless write, edit or patch is switched off, or `permission.edit` denies.
 * - command: unless bash is switched off or denied.
 * - browser: unless webfetch is switched off or denied (Kiln's browser is how it reaches the web).
 * - mcp: Kilo names MCP tools `<server>_<tool>`, so only the catch-all `"*"` (a `"*": false`
 *   switch or a `"*": deny` rule, or a `permission: deny`) turns them all off; a rule for one
 *   server has no counterpart in a mode and is left out.
 */
export function groupsOf(agent: Pick<KiloAgentConfig, "tools" | "permission">): GroupEntry[] {
  const merged = new Map<string, Action>();
  for (const [tool, enabled] of Object.entries(agent.tools ?? {})) {
    const name = tool === "write" || tool === "patch" ? "edit" : tool;
    // Any one of write/edit/patch switched off removes editing: the stricter reading.
    if (name === "edit" && merged.get("edit") === "deny") continue;
    merged.set(name, enabled ? "allow" : "deny");
  }
  const permission = typeof agent.permission === "string" ? { "*": agent.permission } : (agent.permission ?? {});
  for (const [tool, value] of Object.entries(permission)) merged.set(tool, wholeToolAction(value));
  const allowed = (tool: string) => (merged.get(tool) ?? merged.get("*") ?? "allow") !== "deny";
  const groups: GroupEntry[] = ["read"];
  if (allowed("edit")) groups.push("edit");
  if (allowed("bash")) groups.push("command");
  if (allowed("webfetch")) groups.push("browser");
  if (merged.get("*") !== "deny") groups.push("mcp");
  return groups;
}

/** Where inside a value the check failed; for a union (an action, or a map of them), the deepest branch's place. */
function deepestPath(issue: z.core.$ZodIssue): PropertyKey[] {
  if (issue.code !== "invalid_union") return issue.path;
  const inner = issue.errors.flat().map(deepestPath);
  const longest = inner.reduce<PropertyKey[]>((best, path) => (path.length > best.length ? path : best), []);
  return [...issue.path, ...longest];
}

/** The first problem of a failed check, as the field it is about and what is wrong with it. */
function describe(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0]!;
  const path = deepestPath(issue);
  const field = path.map(String).join(".") || "front matter";
  return { field, message: FIELD_MESSAGES[String(path[0])] ?? issue.message };
}

/**
 * One agent as a mode. `slug` is its file name (or its key in `kilo.jsonc`), checked like every
 * mode's; `prompt` its body (a Markdown file's wins over a `prompt` field, as in Kilo).
 */
export function kiloAgentToMode(slug: string, settings: unknown, prompt: string | undefined, source: string): KiloAgentMode {
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) return { ok: false, field: "front matter", message: "must be a mapping of fields" };
  const parsed = kiloAgentSchema.safeParse(settings);
  if (!parsed.success) return { ok: false, ...describe(parsed.error) };
  const agent = parsed.data;
  if (agent.disable === true) return { ok: true, disabled: true };
  if (!MODE_SLUG.test(slug)) return { ok: false, field: "name", message: `"${slug}" cannot be a mode slug: use letters, digits and dashes` };
  const roleDefinition = (prompt ?? agent.prompt ?? "").trim();
  if (!roleDefinition) return { ok: false, field: "prompt", message: "the agent has no prompt (the Markdown body, or `prompt` in the config)" };
  const description = agent.description?.trim() || undefined;
  const mode: Mode = {
    slug,
    name: agent.name ?? titleFromSlug(slug),
    roleDefinition,
    ...(description && { whenToUse: description, description }),
    groups: groupsOf(agent),
    source,
  };
  // The mode loader's own check, so an agent can never yield a mode a modes file could not hold.
  const checked = modeSchema.safeParse(mode);
  if (!checked.success) return { ok: false, ...describe(checked.error) };
  return { ok: true, mode };
}

/** Splits `---` front matter from the body; a file without front matter is all body, as in Kilo. */
export function splitFrontMatter(text: string): { meta: unknown; body: string } | { error: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { meta: {}, body: text.replace(/^\uFEFF/, "") };
  try {
    return { meta: parseYaml(match[1]!) ?? {}, body: text.slice(match[0].length) };
  } catch (err) {
    return { error: `front matter: not valid YAML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
  }
}

/** One file of an agents folder as read: its mode, or why it gave none (`disabled`: by its own `disable: true`). */
export interface KiloAgentFile {
  file: string;
  mode?: Mode;
  disabled?: true;
  problem?: string;
}

/**
 * The agents of one folder (`<name>.md`, sorted by name), each checked on its own: a broken file is
 * reported and the others load. A missing folder is no error. Kilo also reads agents in subfolders,
 * named `team/reviewer`; a slash cannot be in a slug, so those are reported, once per folder.
 */
export function readKiloAgentFiles(folder: string): KiloAgentFile[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? [] : [{ file: folder, problem: `cannot be read (${code ?? String(err)})` }];
  }
  const files: KiloAgentFile[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith(".")) continue;
    const file = join(folder, entry.name);
    if (entry.isDirectory()) {
      files.push({ file, problem: "agents in subfolders are not read: their names hold a slash, which a mode slug cannot" });
      continue;
    }
    if (!entry.name.toLowerCase().endsWith(".md")) continue;
    const read = readAgentText(file);
    if ("problem" in read) {
      files.push({ file, problem: read.problem });
      continue;
    }
    const split = splitFrontMatter(read.text);
    if ("error" in split) {
      files.push({ file, problem: split.error });
      continue;
    }
    const result = kiloAgentToMode(entry.name.slice(0, -3), split.meta, split.body, file);
    if (!result.ok) files.push({ file, problem: `${result.field}: ${result.message}` });
    else files.push("mode" in result ? { file, mode: result.mode } : { file, disabled: true });
  }
  return files;
}

/** The folder's agents as modes, with an error naming the file and field for each one that gives none. */
export function readKiloAgentsFolder(folder: string): ModesFileResult {
  const files = readKiloAgentFiles(folder);
  return {
    modes: files.flatMap((f) => (f.mode ? [f.mode] : [])),
    errors: files.flatMap((f) => (f.problem ? [`${f.file}: ${f.problem}`] : [])),
  };
}

function readAgentText(path: string): { text: string } | { problem: string } {
  try {
    // statSync follows a link, so a linked agent file is read like Kilo reads it.
    const size = statSync(path).size;
    if (size > AGENT_FILE_MAX_BYTES) return { problem: `${size} bytes, more than an agent file may have (${AGENT_FILE_MAX_BYTES})` };
    return { text: readFileSync(path, "utf8") };
  } catch (err) {
    return { problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
}
