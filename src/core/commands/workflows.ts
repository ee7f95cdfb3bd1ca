import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { FileSystem } from "../ports/fileSystem";

/** Where a workspace keeps its workflows, relative to its root. */
export const COMMANDS_DIR = join(".kilocode", "commands");
/**
 * Every folder a workspace's workflows are read from, Kiln's first: Kilo's `.kilocode/workflows`,
 * Roo's `.roo/commands` and Cline's `.clinerules/workflows` are read in place, so a project shared
 * with their users keeps one copy. A name in an earlier folder wins.
 */
export const WORKFLOW_DIRS = [COMMANDS_DIR, join(".kilocode", "workflows"), join(".roo", "commands"), join(".clinerules", "workflows")] as const;

/** The first of `dirs` holding `<name>.md`, with the workflow; undefined when none does. */
export async function findWorkflow(fs: FileSystem, dirs: readonly string[], name: string): Promise<{ dir: string; workflow: Workflow } | undefined> {
  for (const dir of dirs) {
    const workflow = await readWorkflow(fs, dir, name);
    if (workflow) return { dir, workflow };
  }
  return undefined;
}
/** A workflow's name: its file name without `.md`, typed after the slash. */
export const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A workflow file: front matter for pickers and the mode, the body for the model. */
export interface Workflow {
  body: string;
  description?: string;
  argumentHint?: string;
  /** The mode the chat switches to before the body is sent. */
  mode?: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits `---` front matter from the body. Front matter that is not YAML, or fields of the wrong
 * type, are left out rather than failing the command: the body is what matters when it runs.
 */
export function parseWorkflow(text: string): Workflow {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { body: text.trim() };
  const body = text.slice(match[0].length).trim();
  let meta: unknown;
  try {
    meta = parseYaml(match[1]!);
  } catch {
    // A broken header still leaves a usable command; the picker just shows no description.
    return { body };
  }
  if (typeof meta !== "object" || meta === null) return { body };
  const field = (key: string): string | undefined => {
    const value = (meta as Record<string, unknown>)[key];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const description = field("description");
  const argumentHint = field("argument-hint");
  const mode = field("mode");
  return { body, ...(description ? { description } : {}), ...(argumentHint ? { argumentHint } : {}), ...(mode ? { mode } : {}) };
}

/** The body with `$ARGUMENTS` replaced; without the placeholder, given arguments are appended. */
export function fillArguments(body: string, args: string): string {
  const given = args.trim();
  if (body.includes("$ARGUMENTS")) return body.split("$ARGUMENTS").join(given);
  return given ? `${body}\n\nArguments: ${given}` : body;
}

/** `/name rest…` at the start of a message, or undefined when the message is not a command. */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9][A-Za-z0-9._-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? "").trim() };
}

/** Workflow names in `dir` (files `<name>.md` with a valid name), sorted. */
export async function workflowNames(fs: FileSystem, dir: string): Promise<string[]> {
  if ((await fs.stat(dir))?.type !== "directory") return [];
  const entries = await fs.readDirectory(dir);
  return entries
    .filter((e) => e.type === "file" && e.name.endsWith(".md") && COMMAND_NAME.test(e.name.slice(0, -3)))
    .map((e) => e.name.slice(0, -3))
    .sort();
}

/** Reads `<dir>/<name>.md`; undefined when there is no such file. */
export async function readWorkflow(fs: FileSystem, dir: string, name: string): Promise<Workflow | undefined> {
  if (!COMMAND_NAME.test(name)) return undefined;
  const file = join(dir, `${name}.md`);
  if ((await fs.stat(file))?.type !== "file") return undefined;
  return parseWorkflow(new TextDecoder().decode(await fs.readFile(file)));
}
