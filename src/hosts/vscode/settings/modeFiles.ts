import { stringify as toYaml } from "yaml";
import * as vscode from "vscode";
import { loadModes, mergeModes, PROJECT_MODES_FILE, readModesFile } from "../../../core/modes/customModes";
import type { Mode } from "../../../core/modes/modes";

/** The global modes file in the extension's storage; agentSetup.ts reads the same name for new tasks. */
export const GLOBAL_MODES_FILE = "custom_modes.yaml";

const EXAMPLE = `# Custom modes for Kiln (YAML or JSON). New tasks read this file; the mode picker lists its modes.
# Each mode has a slug, a name, a roleDefinition and the tool groups it may use:
# read, edit, command, browser, mcp. An edit group can be limited to files matching a regex.
customModes: []
# Example: replace the line above with
# customModes:
#   - slug: docs-writer
#     name: Docs Writer
#     roleDefinition: You write and improve the project's documentation.
#     whenToUse: Writing or editing Markdown documentation.
#     groups:
#       - read
#       - - edit
#         - fileRegex: \\.md$
#           description: Markdown files only
`;

function folderPath(folder: vscode.WorkspaceFolder): string {
  return folder.uri.scheme === "file" ? folder.uri.fsPath : folder.uri.path;
}

export interface ModeList {
  modes: Mode[];
  errors: string[];
  hasWorkspace: boolean;
}

/** Built-in, global and project modes, as a new task in the first folder would see them. */
export function listModes(storage: vscode.Uri): ModeList {
  const globalFile = vscode.Uri.joinPath(storage, GLOBAL_MODES_FILE).fsPath;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder) return { ...loadModes(folderPath(folder), globalFile), hasWorkspace: true };
  const global = readModesFile(globalFile);
  return { modes: mergeModes(global.modes), errors: global.errors, hasWorkspace: false };
}

/** Opens the project's `.kilocodemodes` or the global modes file, made with a commented example if missing. */
export async function openModesFile(storage: vscode.Uri, scope: "project" | "global"): Promise<vscode.Uri> {
  let uri: vscode.Uri;
  if (scope === "project") {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error(`open a folder first: ${PROJECT_MODES_FILE} belongs to a project`);
    uri = vscode.Uri.joinPath(folder.uri, PROJECT_MODES_FILE);
  } else {
    await vscode.workspace.fs.createDirectory(storage);
    uri = vscode.Uri.joinPath(storage, GLOBAL_MODES_FILE);
  }
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    // stat fails for a missing file: that is the case where the example is written.
    () => false,
  );
  if (!exists) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(EXAMPLE));
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}

/** A mode as a `.kilocodemodes` entry, ready to paste into another project's file. */
export function modeAsYaml(mode: Mode): string {
  const { source: _source, ...entry } = mode;
  return toYaml({ customModes: [entry] });
}
