import { readdirSync, statSync } from "node:fs";
import { posix, win32 } from "node:path";
import { IMPORT_SOURCE_KINDS, type ImportSourceKind } from "../../shared/historyEntry";

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
  kilo: { label: "Kilo Code", extensionIds: ["kilocode.kilo-code"], mcpFile: "settings/mcp_settings.json", modesFile: "settings/custom_modes.yaml", modeRules: true },
  roo: {
    label: "Roo Code",
    extensionIds: ["rooveterinaryinc.roo-cline"],
    mcpFile: "settings/mcp_settings.json",
    modesFile: "settings/custom_modes.yaml",
    globalRuleDirs: [".roo/rules"],
    modeRules: true,
    projectMcpFiles: [".roo/mcp.json"],
  },
  // Zoo reads its own .zoo folders first and falls back to Roo's, which its users often still have.
  zoo: {
    label: "Zoo Code",
    extensionIds: ["zoocodeorganization.zoo-code"],
    mcpFile: "settings/mcp_settings.json",
    modesFile: "settings/custom_modes.yaml",
    globalRuleDirs: [".zoo/rules", ".roo/rules"],
    modeRules: true,
    projectMcpFiles: [".zoo/mcp.json", ".roo/mcp.json"],
  },
  cline: { label: "Cline", extensionIds: ["saoudrizwan.claude-dev"], mcpFile: "settings/cline_mcp_settings.json", globalRuleDirs: ["Documents/Cline/Rules"], modeRules: false },
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

/** Where a local VS Code (or Insiders, or VSCodium) would keep the source's data, most likely first. */
export function defaultStoragePaths(kind: SourceKind, env: Readonly<Record<string, string | undefined>>, platform: Platform): string[] {
  const path = platform === "win32" ? win32 : posix;
  return globalStorageRoots(env, platform).flatMap((root) => SOURCES[kind].extensionIds.map((id) => path.join(root, id.toLowerCase())));
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
    if (name && isFolder(path.join(parent, name))) return path.join(parent, name);
  }
  return undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
