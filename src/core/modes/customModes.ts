import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { readKiloAgentsFolder, KILO_AGENTS_FOLDER } from "./kiloAgents";
import { modeSchema } from "./modeSchema";
import { BUILTIN_MODES, type GroupEntry, type Mode } from "./modes";

// Where the mode rules live; re-exported for the modules that have always imported them from here.
export { GROUP_NAMES, MODE_SLUG, modeSchema } from "./modeSchema";

export interface ModesFileResult {
  modes: Mode[];
  errors: string[];
}

/**
 * A `.kilocodemodes` file (YAML or JSON, `customModes: [...]`, the format Kilo/Roo use). A bad mode
 * is reported with the file, the mode and the field, and the other modes still load.
 */
export function parseModesFile(text: string, file: string): ModesFileResult {
  let data: unknown;
  try {
    data = text.trim() === "" ? {} : parseYaml(text);
  } catch (err) {
    return { modes: [], errors: [`${file}: not valid YAML or JSON: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`] };
  }
  const list = (data as { customModes?: unknown } | null)?.customModes;
  if (list === undefined) return { modes: [], errors: [] };
  if (!Array.isArray(list)) return { modes: [], errors: [`${file}: customModes must be a list of modes`] };
  const modes: Mode[] = [];
  const errors: string[] = [];
  list.forEach((entry, index) => {
    const parsed = modeSchema.safeParse(entry);
    const label = typeof (entry as { slug?: unknown })?.slug === "string" ? `mode "${(entry as { slug: string }).slug}"` : `mode #${index + 1}`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      errors.push(`${file}: ${label}: ${issue.path.join(".") || "entry"}: ${issue.message}`);
      return;
    }
    const { slug, name, roleDefinition, whenToUse, description, customInstructions, groups } = parsed.data;
    if (modes.some((m) => m.slug === slug)) {
      errors.push(`${file}: ${label}: the slug is used twice; the first one is kept`);
      return;
    }
    modes.push({ slug, name, roleDefinition, whenToUse, description, customInstructions, groups: groups as GroupEntry[], source: file });
  });
  return { modes, errors };
}

/** Built-ins, then global custom modes, then the project's: a later one with the same slug wins. */
export function mergeModes(...layers: readonly (readonly Mode[])[]): Mode[] {
  const bySlug = new Map<string, Mode>();
  for (const layer of [BUILTIN_MODES, ...layers]) for (const mode of layer) bySlug.set(mode.slug, mode);
  return [...bySlug.values()];
}

export const PROJECT_MODES_FILE = ".kilocodemodes";
/**
 * Roo's and Zoo's project modes file, same format. Read in place so a project shared with their
 * users keeps one source; on a slug in both files, `.kilocodemodes` wins (it is Kiln's own).
 */
export const ROO_MODES_FILE = ".roomodes";

/** Reads one modes file if it exists; a missing file is no error. */
export function readModesFile(path: string): ModesFileResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? { modes: [], errors: [] } : { modes: [], errors: [`${path}: cannot be read (${code ?? String(err)})`] };
  }
  return parseModesFile(text, path);
}

/**
 * The modes a new task can use: built-ins, then the global file's, the project's Kilo agent files
 * (`.kilo/agents/*.md`, Kilo Code v7's format), `.roomodes` and `.kilocodemodes`. A later one with
 * the same slug wins, so Kiln's own file overrides the formats it reads in place.
 */
export function loadModes(workspace: string, globalFile?: string): ModesFileResult {
  const global = globalFile ? readModesFile(globalFile) : { modes: [], errors: [] };
  const kiloAgents = readKiloAgentsFolder(join(workspace, KILO_AGENTS_FOLDER));
  const roo = readModesFile(join(workspace, ROO_MODES_FILE));
  const project = readModesFile(join(workspace, PROJECT_MODES_FILE));
  return {
    modes: mergeModes(global.modes, kiloAgents.modes, roo.modes, project.modes),
    errors: [...global.errors, ...kiloAgents.errors, ...roo.errors, ...project.errors],
  };
}
