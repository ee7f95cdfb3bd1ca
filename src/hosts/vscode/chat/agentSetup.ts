import * as l10n from "@vscode/l10n";
import { type } from "node:os";
import * as vscode from "vscode";
import { createToolbox, type Toolbox } from "../../../core/agent/toolbox";
import type { WorkspaceIndexes } from "../codeIndex/workspaceIndexes";
import { createPuppeteerSession } from "../../../core/browser/puppeteerSession";
import { BUILTIN_MODES, findMode, type Mode } from "../../../core/modes/modes";
import { loadModes } from "../../../core/modes/customModes";
import type { Logger } from "../../../core/ports";
import { createDefaultRegistry } from "../../../core/tools/registry";
import type { Approvals } from "../../../core/ports/approvals";
import { VsCodeFileSystem } from "../VsCodeFileSystem";
import { createVsCodeTerminal, VsCodeLauncher } from "../terminal/vscodeTerminal";
import { recorded, type LastTerminalOutput } from "../terminal/terminalOutput";
import { readAutoApprove } from "../settings/autoApproveSettings";
import { KILN, readSetting } from "../settings/kilnSettings";
import { VsCodeCommandSandbox } from "../terminal/commandSandbox";
import { DiffEditReview } from "../review/diffReview";
import { workspaceRules } from "../settings/ruleFiles";
import { workspaceSkills } from "../settings/skillFiles";
import type { OriginalDocuments, ProposalFileSystem } from "../review/proposalDocuments";
import type { HunkReview } from "../review/hunkReview";
import type { McpHubApi } from "../../../core/mcp/types";
import { withCaller } from "../../../core/mcp/requests";
import type { WorkspaceCheckpoints } from "../history/checkpointActions";
import { folderProblem } from "./workspaceFolder";
import { VsCodeLanguageServices } from "../languageServices";

/** Tabs open on files of the workspace, the active one first, as the model should see paths. */
function openFiles(folder: vscode.WorkspaceFolder): string[] {
  const paths: string[] = [];
  const active = vscode.window.tabGroups.activeTabGroup.activeTab;
  const tabs = [active, ...vscode.window.tabGroups.all.flatMap((group) => group.tabs)];
  for (const tab of tabs) {
    const input = tab?.input;
    if (!(input instanceof vscode.TabInputText)) continue;
    if (vscode.workspace.getWorkspaceFolder(input.uri)?.uri.toString() !== folder.uri.toString()) continue;
    const path = vscode.workspace.asRelativePath(input.uri, false);
    if (!paths.includes(path)) paths.push(path);
  }
  return paths;
}

const GLOBAL_MODES_FILE = "custom_modes.yaml";
const reported = new Set<string>();

/** Each distinct problem in a mode file is shown once; the other modes keep working. */
function reportModeErrors(errors: readonly string[], logger: Logger): void {
  for (const error of errors) {
    logger.warn(error);
    if (reported.has(error)) continue;
    reported.add(error);
    void vscode.window.showWarningMessage(l10n.t("Kiln: a custom mode was skipped. {0}", error));
  }
}

/** The two sides of the diff editor's reviews, registered once by the extension. */
export interface ReviewDocuments {
  originals: OriginalDocuments;
  proposals: ProposalFileSystem;
  hunks?: HunkReview;
}

/** The first workspace folder, where it is one Kiln can work in (workspaceFolder.ts). */
export function workFolder(): vscode.WorkspaceFolder | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder && !folderProblem(folder.uri) ? folder : undefined;
}

/** Why the window's folder has no tools (a virtual workspace), for the chat to say; undefined otherwise. */
export function workspaceProblem(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder && folderProblem(folder.uri);
}

/** The built-in and custom modes for the first workspace folder; undefined without a folder Kiln can work in. */
export function loadWorkspaceModes(storage: vscode.Uri, logger: Logger): readonly Mode[] | undefined {
  const folder = workFolder();
  if (!folder) return undefined;
  const loaded = loadModes(folder.uri.fsPath, vscode.Uri.joinPath(storage, GLOBAL_MODES_FILE).fsPath);
  reportModeErrors(loaded.errors, logger);
  return loaded.modes;
}

/**
 * Builds the tools of a new task from the settings and the first workspace folder. Without a
 * folder on disk there is nothing to work on, and the chat answers without tools.
 */
export function toolboxFactory(
  storage: vscode.Uri,
  logger: Logger,
  review?: ReviewDocuments,
  terminalOutput?: LastTerminalOutput,
  mcp?: McpHubApi,
  checkpoints?: WorkspaceCheckpoints,
  indexes?: WorkspaceIndexes,
): (approvals: Approvals, mcpCaller?: unknown) => Toolbox | undefined {
  let tasks = 0;
  // The window's Kiln terminals, shared by every task (an idle one is reused); made at the first task.
  let launcher: VsCodeLauncher | undefined;
  const sandbox = new VsCodeCommandSandbox(storage, logger);
  // The workspace a command may write in: the first folder, as for every task; a command run with
  // no folder open (it closed mid-task) is confined to its own folder rather than let out.
  const sandboxFor = (cwd: string) => sandbox.forLaunch(workFolder()?.uri.fsPath ?? cwd);
  // The window's language servers, shared by every task: once a language's server has answered, no task waits for it to start.
  const languageServices = new VsCodeLanguageServices();
  return (approvals, mcpCaller) => {
    const folder = workFolder();
    if (!folder) return undefined;
    const cwd = folder.uri.fsPath;
    // Read for each new task, and again by the chat when a mode file changes (ChatSession).
    const loaded = { modes: loadWorkspaceModes(storage, logger) ?? BUILTIN_MODES };
    const slug = readSetting(KILN.task.mode, logger, (v) => (findMode(v, loaded.modes) ? undefined : "there is no such mode"));
    const taskDir = vscode.Uri.joinPath(storage, "tasks", `${Date.now()}-${++tasks}`);
    let overflows = 0;
    const fs = new VsCodeFileSystem();
    return createToolbox({
      registry: createDefaultRegistry(),
      mode: findMode(slug, loaded.modes) ?? BUILTIN_MODES[0]!,
      modes: loaded.modes,
      approvals,
      // Read per call, so turning auto-approve or the command sandbox on or off applies to the running task.
      autoApprove: () => sandbox.approval(readAutoApprove(logger), cwd),
      cwd,
      fs,
      // Edits open in the diff editor for review; without the review documents they go straight to disk.
      edits:
        review &&
        new DiffEditReview({
          ...review,
          fs,
          toUri: (path) => vscode.Uri.file(path),
          logger,
          diagnosticsDelay: () => readSetting(KILN.edits.diagnosticsDelayMs, logger),
          openDiffEditor: () => readSetting(KILN.edits.openDiffEditor, logger),
        }),
      os: type(),
      openFiles: () => openFiles(folder),
      fuzzyThreshold: () => readSetting(KILN.edits.fuzzyThreshold, logger),
      // Read per call too: a limit changed in the settings panel applies to the running task's next tool.
      readFileMaxLines: () => readSetting(KILN.context.readFileMaxLines, logger),
      toolResultMaxChars: () => readSetting(KILN.context.toolResultMaxChars, logger),
      outputMaxChars: () => readSetting(KILN.terminal.outputMaxChars, logger),
      allowPrivateUrls: () => readSetting(KILN.mentions.allowPrivateUrls, logger),
      redactSecrets: () => readSetting(KILN.task.redactSecrets, logger),
      // Rule files are read for each request: an edited or toggled rule reaches the running task.
      rules: workspaceRules(storage, cwd, logger),
      // Skills likewise: one added or turned off reaches the running task's next request.
      skills: workspaceSkills(storage, cwd, logger),
      // Tagged with the chat, so a server's sampling or form request during a call is asked there.
      mcp: mcp && mcpCaller !== undefined ? withCaller(mcp, mcpCaller) : mcp,
      requireTodosDone: readSetting(KILN.task.requireTodosDone, logger),
      maxRequests: readSetting(KILN.task.maxRequests, logger),
      saveOverflow: async (toolName, text) => {
        const file = vscode.Uri.joinPath(taskDir, `${toolName}-${++overflows}.txt`);
        await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
        return file.fsPath;
      },
      // Each task numbers its own commands; a long output is logged in the task's folder.
      terminal: createVsCodeTerminal(recorded((launcher ??= new VsCodeLauncher({ logger, sandbox: sandboxFor })), terminalOutput), {
        logDir: taskDir.scheme === "file" ? () => taskDir.fsPath : undefined,
      }),
      // The path is read at each launch, so fixing the setting after a "no browser found" error works at once.
      browser: () => createPuppeteerSession({ logger, executablePath: () => readSetting(KILN.browser.executablePath, logger) }),
      // Before each reply's first edit, in a shadow repository in global storage.
      checkpoints: checkpoints?.forTask(folder.uri),
      // The window's index, built in the background; with kiln.index.enabled off the task is not offered codebase_search.
      codeIndex: indexes?.forFolder(cwd),
      codeSearchMaxResults: () => readSetting(KILN.index.maxResults, logger),
      // go_to_definition, find_references, workspace_symbols and call_hierarchy: the editor's own language servers.
      languageServices,
    });
  };
}
