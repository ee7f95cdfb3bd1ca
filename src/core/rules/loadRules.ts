import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { RULES_FOLDER } from "../../shared/ruleName";
import { readStart } from "../files/readStart";

/**
 * Rule files: the user's standing instructions, added to the system prompt. Read with plain node fs
 * and synchronously, like the mode files (customModes.ts): the system prompt is built synchronously
 * for each request, and a handful of small files cost less than a cache that could go stale.
 */
export type RuleScope = "global" | "project";

export interface RuleFile {
  /** `<scope>:<path relative to the scope's root>` with forward slashes: what kiln.rules.disabled holds. */
  id: string;
  scope: RuleScope;
  /** The mode whose folder or file holds it (rules-<mode>/, .roorules-<mode>); absent: every mode. */
  mode?: string;
  /** Absolute path. */
  path: string;
  /** As the model and the user see it: workspace-relative for project rules, absolute for global ones. */
  display: string;
  size: number;
}

export interface LoadedRule extends RuleFile {
  text: string;
  /** Set when only the start of the file is included; says why. */
  cut?: string;
}

export interface RulesLoad {
  rules: LoadedRule[];
  /** Files left out because the rules reached the total cap. */
  leftOut: string[];
  /** Unreadable folders or files; never fatal, the other rules still load. */
  errors: string[];
}

/**
 * Where rules are looked for. `globalDir` is a folder of global rules (VS Code: the extension's
 * global storage `rules/`; CLI: ~/.kilocode/rules or --global-rules); its mode-specific folders sit
 * beside it as `<globalDir>-<mode>` (…/rules-code). Global ids are relative to its parent folder.
 */
export interface RulesLocation {
  workspace?: string;
  globalDir?: string;
}

export const RULE_FILE_MAX_BYTES = 50_000;
export const RULES_TOTAL_MAX_BYTES = 200_000;
/** A global folder pointed at a big tree should not make every request walk it. */
const MAX_FILES = 200;
const MAX_DEPTH = 5;
const RULE_EXTENSIONS = /\.(md|markdown|txt)$/i;
/** Single-file rules other agents use, which users bring along; each may also be a folder. */
export const LEGACY_RULE_FILES = [".clinerules", ".kilocoderules", ".roorules"] as const;
export const AGENTS_FILE = "AGENTS.md";
/** Roo's and Zoo's rules folder, read in place like `.kilocode/rules` (rules-<mode> beside it). */
export const ROO_RULES_FOLDER = join(".roo", "rules");
const MODE_SLUG = /^[a-zA-Z0-9][a-zA-Z0-9-]*$/;

const codeOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const slash = (path: string) => path.split("\\").join("/");
const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? String(err);
const missing = (err: unknown): boolean => ["ENOENT", "ENOTDIR"].includes(String((err as NodeJS.ErrnoException).code));

interface Walk {
  files: { path: string; size: number }[];
  errors: string[];
  full: boolean;
  /** Folders inside rule folders that hold something else (Cline's .clinerules/workflows: slash commands). */
  skip: Set<string>;
}

/** Adds a file, or every rule file under a folder (recursively, dotfiles and other extensions skipped). */
function collect(path: string, walk: Walk, depth = 0, inFolder = false): void {
  let stat;
  try {
    stat = statSync(path);
  } catch (err) {
    if (!missing(err) || inFolder) walk.errors.push(`${path}: cannot be read (${errorCode(err)})`);
    return;
  }
  if (stat.isFile()) {
    if (inFolder && !RULE_EXTENSIONS.test(path)) return;
    if (walk.files.length >= MAX_FILES) {
      walk.full = true;
      return;
    }
    walk.files.push({ path, size: stat.size });
    return;
  }
  if (!stat.isDirectory() || depth > MAX_DEPTH || walk.skip.has(path)) return;
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (err) {
    walk.errors.push(`${path}: cannot be read (${errorCode(err)})`);
    return;
  }
  for (const name of names.sort(codeOrder)) if (!name.startsWith(".")) collect(join(path, name), walk, depth + 1, true);
}

/** Names in a folder that start with `prefix-`, as mode slugs; none if the folder is missing. */
function modeSuffixes(folder: string, prefix: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.startsWith(`${prefix}-`))
      .map((name) => name.slice(prefix.length + 1))
      .filter((mode) => MODE_SLUG.test(mode));
  } catch {
    // A missing folder has no mode rules; an unreadable one is reported when its general rules are read.
    return [];
  }
}

interface Group {
  scope: RuleScope;
  mode?: string;
  root: string;
  sources: string[];
}

function groupsOf(where: RulesLocation, mode: string | undefined): Group[] {
  const groups: Group[] = [];
  const { globalDir, workspace } = where;
  // undefined: every mode, for the settings panel's list; a slug: that mode's rules only.
  const modesIn = (folder: string, prefix: string) => (mode === undefined ? modeSuffixes(folder, prefix) : MODE_SLUG.test(mode) ? [mode] : []);
  if (globalDir) {
    const root = dirname(globalDir);
    groups.push({ scope: "global", root, sources: [globalDir] });
    for (const m of modesIn(root, basename(globalDir))) groups.push({ scope: "global", mode: m, root, sources: [`${globalDir}-${m}`] });
  }
  if (workspace) {
    const folders = [RULES_FOLDER, ROO_RULES_FOLDER];
    groups.push({ scope: "project", root: workspace, sources: [...folders.map((f) => join(workspace, f)), join(workspace, AGENTS_FILE), ...LEGACY_RULE_FILES.map((f) => join(workspace, f))] });
    const modes = new Set([...folders.flatMap((f) => modesIn(join(workspace, dirname(f)), basename(f))), ...LEGACY_RULE_FILES.flatMap((f) => modesIn(workspace, f))]);
    for (const m of [...modes].sort(codeOrder)) {
      groups.push({ scope: "project", mode: m, root: workspace, sources: [...folders.map((f) => join(workspace, `${f}-${m}`)), ...LEGACY_RULE_FILES.map((f) => join(workspace, `${f}-${m}`))] });
    }
  }
  return groups;
}

/**
 * The rule files that apply in `mode` (undefined: in any mode), in prompt order: global before
 * project, and in each scope the general rules before the mode's; within a group, by path.
 */
export function discoverRules(where: RulesLocation, mode?: string): { files: RuleFile[]; errors: string[] } {
  const walk: Walk = { files: [], errors: [], full: false, skip: new Set(where.workspace ? [join(where.workspace, ".clinerules", "workflows")] : []) };
  const files: RuleFile[] = [];
  for (const group of groupsOf(where, mode)) {
    const start = walk.files.length;
    for (const source of group.sources) collect(source, walk);
    const found = walk.files.slice(start).map(({ path, size }): RuleFile => {
      const rel = slash(relative(group.root, path));
      return { id: `${group.scope}:${rel}`, scope: group.scope, ...(group.mode ? { mode: group.mode } : {}), path, display: group.scope === "project" ? rel : slash(path), size };
    });
    files.push(...found.sort((a, b) => codeOrder(a.id, b.id)));
  }
  if (walk.full) walk.errors.push(`more than ${MAX_FILES} rule files were found; the rest are left out`);
  return { files, errors: walk.errors };
}

const kb = (bytes: number) => `${Math.ceil(bytes / 1000)} KB`;

export interface LoadOptions {
  /** Rule ids (RuleFile.id) the user turned off. */
  disabled?: Iterable<string>;
  maxFileBytes?: number;
  maxTotalBytes?: number;
}

/**
 * The rules for a request in `mode`: each enabled file's text, cut to the per-file cap and, once the
 * total cap is reached, left out (named in `leftOut`). Empty files add nothing.
 */
export function loadRules(where: RulesLocation, mode: string, options: LoadOptions = {}): RulesLoad {
  const maxFile = options.maxFileBytes ?? RULE_FILE_MAX_BYTES;
  let budget = options.maxTotalBytes ?? RULES_TOTAL_MAX_BYTES;
  const disabled = new Set(options.disabled ?? []);
  const found = discoverRules(where, mode);
  const load: RulesLoad = { rules: [], leftOut: [], errors: found.errors };
  for (const file of found.files) {
    if (disabled.has(file.id)) continue;
    if (budget <= 0) {
      load.leftOut.push(file.display);
      continue;
    }
    const limit = Math.min(maxFile, budget);
    let read;
    try {
      read = readStart(file.path, limit);
    } catch (err) {
      load.errors.push(`${file.path}: cannot be read (${errorCode(err)})`);
      continue;
    }
    if (read.text.includes("\0")) {
      load.errors.push(`${file.path}: looks like a binary file, not a rule; left out`);
      continue;
    }
    const cutShort = read.size > Buffer.byteLength(read.text);
    // A cut through a multi-byte character leaves a replacement character at the end.
    const text = (cutShort ? read.text.replace(/\uFFFD+$/, "") : read.text).replace(/^\uFEFF/, "").trim();
    if (text === "") continue;
    budget -= Buffer.byteLength(read.text);
    const why =
      limit === maxFile
        ? `the file has ${kb(read.size)}; only the first ${kb(maxFile)} are included`
        : `the rules reached ${kb(options.maxTotalBytes ?? RULES_TOTAL_MAX_BYTES)} in all; only the start of this file is included`;
    load.rules.push({ ...file, size: read.size, text, ...(cutShort ? { cut: why } : {}) });
  }
  return load;
}
