import { lstatSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse as parseYaml } from "yaml";
import { readStart } from "../files/readStart";

/**
 * Agent skills in the open SKILL.md format: a folder whose SKILL.md starts with front matter
 * (`name`, `description`) and whose body tells the model how to do one kind of task; the folder may
 * hold scripts and references the body points to. The system prompt lists names and descriptions
 * only; the body is loaded when the model asks for it (use_skill) or the user types /<name>.
 * Read synchronously with plain node fs, like rules: a few small files per request.
 */
export type SkillScope = "global" | "project";

export interface Skill {
  /** `<scope>:<folder relative to the scope's root>` with forward slashes: what kiln.skills.disabled holds. */
  id: string;
  name: string;
  description: string;
  scope: SkillScope;
  /** The skill's folder, absolute. */
  folder: string;
  /** The folder as the model and the user see it: workspace-relative for project skills, absolute for global ones. */
  display: string;
}

export interface SkillsFound {
  skills: Skill[];
  /** Unreadable folders, bad front matter, a name used twice: never fatal, the other skills load. */
  errors: string[];
}

/**
 * Where skills are looked for: the global folder (VS Code: the extension's global storage `skills/`;
 * the CLI: ~/.kilocode/skills), then the workspace's `.kilocode/skills/`, `.claude/skills/` and
 * `.roo/skills/` (those other agents' folders are read in place).
 */
export interface SkillsLocation {
  workspace?: string;
  globalDir?: string;
}

export const SKILL_FILE = "SKILL.md";
export const PROJECT_SKILL_FOLDERS = [join(".kilocode", "skills"), join(".claude", "skills"), join(".roo", "skills")] as const;
/** The open format's limits: a name a slash command can carry, a description that fits a prompt line. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
export const SKILL_BODY_MAX_BYTES = 50_000;
/** Front matter sits at the top; a skill whose header runs past this is not a skill file. */
const HEADER_MAX_BYTES = 8_000;
const MAX_SKILLS = 100;
const MAX_LISTED_FILES = 200;
const MAX_DEPTH = 4;

const codeOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const slash = (path: string) => path.split("\\").join("/");
const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? String(err);
const missing = (err: unknown): boolean => ["ENOENT", "ENOTDIR"].includes(String((err as NodeJS.ErrnoException).code));
const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

type Header = { ok: true; name: string; description: string; bodyStart: number } | { ok: false; error: string };

/** The front matter's name and description, checked against the format's rules. */
export function parseSkillHeader(text: string): Header {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { ok: false, error: "it does not start with --- front matter holding name and description" };
  let meta: unknown;
  try {
    meta = parseYaml(match[1]!);
  } catch (err) {
    return { ok: false, error: `its front matter is not YAML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
  }
  const fields = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>) : {};
  const name = typeof fields.name === "string" ? fields.name.trim() : "";
  const description = typeof fields.description === "string" ? fields.description.trim().replace(/\s+/g, " ") : "";
  if (!name) return { ok: false, error: "its front matter has no name" };
  if (name.length > NAME_MAX || !SKILL_NAME.test(name))
    return { ok: false, error: `the name "${name.slice(0, 80)}" must be lower-case letters, digits and single dashes, at most ${NAME_MAX} characters` };
  if (!description) return { ok: false, error: "its front matter has no description" };
  if (description.length > DESCRIPTION_MAX) return { ok: false, error: `its description has ${description.length} characters; at most ${DESCRIPTION_MAX}` };
  return { ok: true, name, description, bodyStart: match[0].length };
}

interface Source {
  scope: SkillScope;
  /** The folder holding one folder per skill. */
  dir: string;
  /** What ids and displays are relative to. */
  root: string;
}

function sourcesOf(where: SkillsLocation): Source[] {
  const sources: Source[] = [];
  if (where.globalDir) sources.push({ scope: "global", dir: where.globalDir, root: join(where.globalDir, "..") });
  if (where.workspace) for (const folder of PROJECT_SKILL_FOLDERS) sources.push({ scope: "project", dir: join(where.workspace, folder), root: where.workspace });
  return sources;
}

/**
 * Every skill, global first, then the project's folders in the order above. A project skill with a
 * global one's name replaces it (the project knows its own work best); within a scope the first
 * folder's wins and the other is reported.
 */
export function discoverSkills(where: SkillsLocation): SkillsFound {
  const byName = new Map<string, Skill>();
  const errors: string[] = [];
  let count = 0;
  for (const source of sourcesOf(where)) {
    let names: string[];
    try {
      names = readdirSync(source.dir);
    } catch (err) {
      if (!missing(err)) errors.push(`${source.dir}: cannot be read (${errorCode(err)})`);
      continue;
    }
    for (const entry of names.sort(codeOrder)) {
      if (entry.startsWith(".")) continue;
      const folder = join(source.dir, entry);
      const file = join(folder, SKILL_FILE);
      // Problems name the file as the user sees it: workspace-relative in a project, like the skills list.
      const shown = source.scope === "project" ? slash(relative(source.root, file)) : slash(file);
      let header: Header;
      try {
        if (!statSync(folder).isDirectory()) continue;
        header = parseSkillHeader(readStart(file, HEADER_MAX_BYTES).text);
      } catch (err) {
        // A folder without SKILL.md is not a skill (a shared scripts folder, say): no error for it.
        if (!missing(err)) errors.push(`${shown}: cannot be read (${errorCode(err)})`);
        continue;
      }
      if (!header.ok) {
        errors.push(`${shown}: not loaded as a skill: ${header.error}`);
        continue;
      }
      if (++count > MAX_SKILLS) {
        errors.push(`more than ${MAX_SKILLS} skills were found; the rest are left out`);
        return { skills: [...byName.values()], errors };
      }
      const rel = slash(relative(source.root, folder));
      const skill: Skill = { id: `${source.scope}:${rel}`, name: header.name, description: header.description, scope: source.scope, folder, display: source.scope === "project" ? rel : slash(folder) };
      const earlier = byName.get(header.name);
      if (earlier && earlier.scope === source.scope) {
        errors.push(`${shown}: the skill name "${header.name}" is also used by ${earlier.display}; that one is kept`);
        continue;
      }
      byName.set(header.name, skill);
    }
  }
  return { skills: [...byName.values()], errors };
}

export interface LoadedSkill {
  skill: Skill;
  body: string;
  /** Set when only the start of the body is included. */
  cut?: string;
  /** The other files in its folder, relative to it, with forward slashes. */
  files: string[];
  /** True when the folder held more files than are listed. */
  moreFiles: boolean;
}

function listFiles(folder: string, prefix: string, out: string[], depth: number): boolean {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    // An unreadable subfolder is left out of the list; the body still loads.
    return false;
  }
  for (const name of names.sort(codeOrder)) {
    if (name.startsWith(".") || (depth === 0 && name === SKILL_FILE)) continue;
    const path = join(folder, name);
    let stat;
    try {
      // Links are not followed: one to a home folder would hand the model its file names.
      stat = lstatSync(path);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) continue;
    const rel = prefix ? `${prefix}/${name}` : name;
    if (stat.isDirectory()) {
      if (depth < MAX_DEPTH && listFiles(path, rel, out, depth + 1)) return true;
      continue;
    }
    if (out.length >= MAX_LISTED_FILES) return true;
    out.push(rel);
  }
  return false;
}

/** The skill's instructions (its body, without front matter) and the files beside them. */
export function loadSkill(skill: Skill): LoadedSkill {
  const read = readStart(join(skill.folder, SKILL_FILE), SKILL_BODY_MAX_BYTES);
  if (read.text.includes("\0")) throw new Error(`${skill.display}/${SKILL_FILE} looks like a binary file`);
  const header = parseSkillHeader(read.text);
  const cutShort = read.size > Buffer.byteLength(read.text);
  const text = cutShort ? read.text.replace(/\uFFFD+$/, "") : read.text;
  const body = (header.ok ? text.slice(header.bodyStart) : text).trim();
  const files: string[] = [];
  const moreFiles = listFiles(skill.folder, "", files, 0);
  return { skill, body, ...(cutShort ? { cut: `SKILL.md has ${Math.ceil(read.size / 1000)} KB; only the first ${SKILL_BODY_MAX_BYTES / 1000} KB are included` } : {}), files, moreFiles };
}

/** What the model reads when it loads a skill: its instructions, then where its files are. */
export function skillForModel(loaded: LoadedSkill, args?: string): string {
  const { skill } = loaded;
  const files = loaded.files.length
    ? `\n\nFiles in the skill's folder ${skill.display}/ (read them with read_file when the instructions call for them${skill.scope === "global" ? "; the folder is outside the workspace" : ""}):\n${loaded.files.map((f) => `- ${skill.display}/${f}`).join("\n")}${loaded.moreFiles ? "\n- (more files not listed)" : ""}`
    : "";
  const given = args?.trim() ? `\n\nThe user's request for this skill: ${args.trim()}` : "";
  return `Skill "${skill.name}" (${skill.display}/${SKILL_FILE}); follow these instructions:\n<skill name="${skill.name}">\n${loaded.body}${loaded.cut ? `\n\n[Cut: ${loaded.cut}.]` : ""}\n</skill>${files}${given}`;
}

/**
 * The system prompt's list of skills: names and descriptions only, so a dozen skills cost a few
 * lines until one is used. Empty without skills, so the prompt stays as it was.
 */
export function skillsSection(skills: readonly Pick<Skill, "name" | "description">[] | undefined): string {
  if (!skills?.length) return "";
  return `\n\n# Skills

Skills are instructions the user keeps for particular kinds of task. When a task matches a skill's description, load it with use_skill first and follow it.
${skills.map((s) => `- ${s.name}: ${s.description}`).join("\n")}`;
}

export interface SkillsSourceOptions {
  where: SkillsLocation;
  /** Skill ids (Skill.id) the user turned off; read at each call, so a switch applies to the next request. */
  disabled?(): readonly string[];
  /** Each distinct problem is reported once per source. */
  report?(problem: string): void;
}

/** What a host hands the toolbox: the enabled skills, found again at each call so an added or edited skill applies at once. */
export function createSkillsSource(options: SkillsSourceOptions): () => Skill[] {
  const reported = new Set<string>();
  return () => {
    const found = discoverSkills(options.where);
    for (const error of found.errors) {
      if (reported.has(error)) continue;
      reported.add(error);
      options.report?.(`skills: ${error}`);
    }
    const disabled = new Set(options.disabled?.() ?? []);
    return found.skills.filter((s) => !disabled.has(s.id));
  };
}
