import { readdirSync, statSync } from "node:fs";
import { join, posix, win32 } from "node:path";
import { IMPORT_SOURCE_KINDS, IMPORT_SOURCE_LABELS, type ImportSourceKind } from "../../shared/historyEntry";

/**
 * The agents Kiln imports from, and where each keeps its data. All four descend from Cline and keep
 * it alike in VS Code's global storage (`<user data>/User/globalStorage/<extension id>/`): modes in
 * `settings/custom_modes.yaml`, MCP servers in `settings/*mcp_settings.json`, one folder per task
 * under `tasks/`. What differs is listed here, so a new fork or a renamed extension is one entry.
 */

export const SOURCE_KINDS = IMPORT_SOURCE_KINDS;
export type SourceKind = ImportSourceKind;

export function isSourceKind(value: string): value is SourceKind {
  return (SOURCE_KINDS as readonly string[]).includes(value);
}

export interface SourceInfo {
  label: string;
  /**
   * The extension's ids as `publisher.name`; the first found wins. VS Code names the storage folder
   * after the id in lower case, so the folder is matched regardless of case.
   */
  extensionIds: readonly string[];
  /** The global MCP file, relative to the storage folder. */
  mcpFile: string;
  /** The global modes file, relative to the storage folder; absent where the agent has none (Cline). */
  modesFile?: string;
  /**
   * Global rule folders, relative to the home folder, most preferred first: a file found in an
   * earlier one wins over the same name in a later one. Absent: nothing to copy.
   */
  globalRuleDirs?: readonly string[];
  /** Whether `<rule dir>-<mode>` folders beside the global one hold mode rules. */
  modeRules: boolean;
  /** The project's MCP files, relative to the workspace, most preferred first (merged into .kilocode/mcp.json). */
  projectMcpFiles?: readonly string[];
}

export const SOURCES: Record<SourceKind, SourceInfo> = {
  // Kilo's global rules (~/.kilocode/rules*) and project MCP file (.kilocode/mcp.json) are Kiln's own: read in place.
  kilo: { label: IMPORT_SOURCE_LABELS.kilo, extensionIds: ["kilocode.kilo-code"], mcpFile: "settings/mcp_settings.json", modesFile: "settings/custom_modes.yaml", modeRules: true },
  roo: {
    label: IMPORT_SOURCE_LABELS.roo,
    extensionIds: ["rooveterinaryinc.roo-cline"],
    mcpFile: "settings/mcp_settings.json",
    modesFile: "settings/custom_modes.yaml",
    globalRuleDirs: [".roo/rules"],
    modeRules: true,
    projectMcpFiles: [".roo/mcp.json"],
  },
  // Zoo reads its own .zoo folders first and falls back to Roo's, which its users often still have.
  zoo: {
    label: IMPORT_SOURCE_LABELS.zoo,
    extensionIds: ["zoocodeorganization.zoo-code"],
    mcpFile: "settings/mcp_settings.json",
    modesFile: "settings/custom_modes.yaml",
    globalRuleDirs: [".zoo/rules", ".roo/rules"],
    modeRules: true,
    projectMcpFiles: [".zoo/mcp.json", ".roo/mcp.json"],
  },
  cline: { label: IMPORT_SOURCE_LABELS.cline, extensionIds: ["saoudrizwan.claude-dev"], mcpFile: "settings/cline_mcp_settings.json", globalRuleDirs: ["Documents/Cline/Rules"], modeRules: false },
};

/** VS Code and the builds that share its layout, each with its own user data folder. */
const EDITOR_FOLDERS = ["Code", "Code - Insiders", "VSCodium"] as const;

export type Platform = "linux" | "darwin" | "win32" | (string & {});

/** The folders holding VS Code's global storage, in the order they are tried. */
function globalStorageRoots(env: Readonly<Record<string, string | undefined>>, platform: Platform): string[] {
  const path = platform === "win32" ? win32 : posix;
  const home = env.HOME || env.USERPROFILE || "";
  let base: string;
  if (platform === "win32") base = env.APPDATA || path.join(home, "AppData", "Roaming");
  else if (platform === "darwin") base = path.join(home, "Library", "Application Support");
  else base = env.XDG_CONFIG_HOME || path.join(home, ".config");
  return EDITOR_FOLDERS.map((editor) => path.join(base, editor, "User", "globalStorage"));
}

/**
 * Kilo Code v7 (rebuilt on the Kilo CLI, a fork of opencode) keeps its settings and agents in the
 * XDG config folder on every platform, `$XDG_CONFIG_HOME/kilo` or `~/.config/kilo`, not in the
 * editor's storage (src/core/import/kiloV7.ts reads it).
 */
export function kiloConfigDir(env: Readonly<Record<string, string | undefined>>, platform: Platform): string {
  const path = platform === "win32" ? win32 : posix;
  const home = env.HOME || env.USERPROFILE || "";
  return path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "kilo");
}

/**
 * Where a local VS Code (or Insiders, or VSCodium) would keep the source's data, most likely first;
 * for Kilo, its v7 config folder last, since a v7 user may have no v5 storage at all.
 */
export function defaultStoragePaths(kind: SourceKind, env: Readonly<Record<string, string | undefined>>, platform: Platform): string[] {
  const path = platform === "win32" ? win32 : posix;
  const storage = globalStorageRoots(env, platform).flatMap((root) => SOURCES[kind].extensionIds.map((id) => path.join(root, id.toLowerCase())));
  return kind === "kilo" ? [...storage, kiloConfigDir(env, platform)] : storage;
}

/** The first of the default folders that exists, matched case-insensitively; undefined when none does. */
export function findStorage(kind: SourceKind, env: Readonly<Record<string, string | undefined>>, platform: Platform = process.platform): string | undefined {
  const path = platform === "win32" ? win32 : posix;
  for (const candidate of defaultStoragePaths(kind, env, platform)) {
    const parent = path.dirname(candidate);
    const wanted = path.basename(candidate).toLowerCase();
    let names: string[];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    const name = names.find((n) => n.toLowerCase() === wanted);
    if (!name || !isFolder(path.join(parent, name))) continue;
    // ~/.config/kilo may hold only the CLI's state (an auth file, a log): nothing to import then.
    if (kind === "kilo" && candidate === kiloConfigDir(env, platform) && !holdsKiloConfig(path.join(parent, name))) continue;
    return path.join(parent, name);
  }
  return undefined;
}

/** Kilo v7's global config files, most preferred first (the opencode names and config.json are older ones it still reads). */
export const KILO_CONFIG_FILES = ["kilo.jsonc", "kilo.json", "opencode.jsonc", "opencode.json", "config.json"] as const;
/** Kilo v7's global agent files: `<config folder>/agents/<name>.md`. */
export const KILO_AGENTS_DIR = "agents";

/** Whether a folder holds Kilo v7 settings: a config file or an agent file. */
export function holdsKiloConfig(dir: string): boolean {
  if (KILO_CONFIG_FILES.some((name) => isFile(join(dir, name)))) return true;
  try {
    return readdirSync(join(dir, KILO_AGENTS_DIR)).some((name) => name.toLowerCase().endsWith(".md"));
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
