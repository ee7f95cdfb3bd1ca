import { type } from "node:os";
import * as vscode from "vscode";
import { createToolbox, type Toolbox } from "../../../core/agent/toolbox";
import { createPuppeteerSession } from "../../../core/browser/puppeteerSession";
import { BUILTIN_MODES, findMode, type Mode } from "../../../core/modes/modes";
import { loadModes } from "../../../core/modes/customModes";
import type { Logger } from "../../../core/ports";
import type { ToolProtocolSetting } from "../../../core/prompts/system";
import { OUTPUT_MAX_CHARS, READ_FILE_MAX_LINES, TOOL_RESULT_MAX_CHARS, withinBounds, type LimitBounds } from "../../../shared/limits";
import { createDefaultRegistry } from "../../../core/tools/registry";
import type { Approvals } from "../../../core/ports/approvals";
import { VsCodeFileSystem } from "../VsCodeFileSystem";
import { createVsCodeTerminal, VsCodeLauncher } from "../terminal/vscodeTerminal";
import { recorded, type LastTerminalOutput } from "../terminal/terminalOutput";
import { readAutoApprove } from "../settings/autoApproveSettings";
import { VsCodeCommandSandbox } from "../terminal/commandSandbox";
import { DiffEditReview } from "../review/diffReview";
import { workspaceRules } from "../settings/ruleFiles";
import type { OriginalDocuments, ProposalFileSystem } from "../review/proposalDocuments";
import type { HunkReview } from "../review/hunkReview";
import type { McpHubApi } from "../../../core/mcp/types";
import { withCaller } from "../../../core/mcp/requests";
import type { WorkspaceCheckpoints } from "../history/checkpointActions";

const PROTOCOLS: readonly ToolProtocolSetting[] = ["xml", "native", "auto"];

/** Settings are user input: a wrong value is logged and replaced by the default, never fatal. */
export function setting<T>(logger: Logger, key: string, fallback: T, valid: (value: unknown) => value is T): T {
  const value = vscode.workspace.getConfiguration("kiln").get<unknown>(key, fallback);
  if (valid(value)) return value;
  logger.warn(`setting kiln.${key} is ${JSON.stringify(value)}, which is not valid; using ${JSON.stringify(fallback)}`);
  return fallback;
}

function limit(logger: Logger, key: string, bounds: LimitBounds): number {
  return setting(logger, key, bounds.default, (v): v is number => withinBounds(v, bounds));
}

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
    void vscode.window.showWarningMessage(`Kiln: a custom mode was skipped. ${error}`);
  }
}

/** The two sides of the diff editor's reviews, registered once by the extension. */
export interface ReviewDocuments {
  originals: OriginalDocuments;
  proposals: ProposalFileSystem;
  hunks?: HunkReview;
}

/** The built-in and custom modes for the first workspace folder; undefined without a folder. */
export function loadWorkspaceModes(storage: vscode.Uri, logger: Logger): readonly Mode[] | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  const cwd = folder.uri.scheme === "file" ? folder.uri.fsPath : folder.uri.path;
  const loaded = loadModes(cwd, vscode.Uri.joinPath(storage, GLOBAL_MODES_FILE).fsPath);
  reportModeErrors(loaded.errors, logger);
  return loaded.modes;
}

/**
 * Builds the tools of a new task from the settings and the first workspace folder. Without a
 * folder there is nothing to work on, and the chat answers without tools.
 */
export function toolboxFactory(
  storage: vscode.Uri,
  logger: Logger,
  review?: ReviewDocuments,
  terminalOutput?: LastTerminalOutput,
  mcp?: McpHubApi,
  checkpoints?: WorkspaceCheckpoints,
): (approvals: Approvals, mcpCaller?: unknown) => Toolbox | undefined {
  let tasks = 0;
  // The window's Kiln terminals, shared by every task (an idle one is reused); made at the first task.
  let launcher: VsCodeLauncher | undefined;
  const sandbox = new VsCodeCommandSandbox(storage, logger);
  // The workspace a command may write in: the first folder, as for every task; a command run with
  // no folder open (it closed mid-task) is confined to its own folder rather than let out.
  const sandboxFor = (cwd: string) => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return sandbox.forLaunch(folder?.uri.scheme === "file" ? folder.uri.fsPath : cwd);
  };
  return (approvals, mcpCaller) => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return undefined;
    const cwd = folder.uri.scheme === "file" ? folder.uri.fsPath : folder.uri.path;
    // Read for each new task, and again by the chat when a mode file changes (ChatSession).
    const loaded = { modes: loadWorkspaceModes(storage, logger) ?? BUILTIN_MODES };
    const slug = setting(logger, "mode", "code", (v): v is string => typeof v === "string" && findMode(v, loaded.modes) !== undefined);
    const taskDir = vscode.Uri.joinPath(storage, "tasks", `${Date.now()}-${++tasks}`);
    let overflows = 0;
    const toUri = folder.uri.scheme === "file" ? undefined : (path: string) => folder.uri.with({ path });
    const fs = new VsCodeFileSystem(toUri);
    return createToolbox({
      registry: createDefaultRegistry(),
      mode: findMode(slug, loaded.modes) ?? BUILTIN_MODES[0]!,
      modes: loaded.modes,
      protocol: setting(logger, "provider.protocol", "xml", (v): v is ToolProtocolSetting => PROTOCOLS.includes(v as ToolProtocolSetting)),
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
          toUri: toUri ?? ((path) => vscode.Uri.file(path)),
          logger,
          diagnosticsDelay: () => setting(logger, "diagnostics.delayMs", 1000, (v): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 10_000),
          openDiffEditor: () => setting(logger, "edits.openDiffEditor", true, (v): v is boolean => typeof v === "boolean"),
        }),
      os: type(),
      openFiles: () => openFiles(folder),
      fuzzyThreshold: () => setting(logger, "applyDiff.fuzzyThreshold", 1, (v): v is number => typeof v === "number" && v >= 0.8 && v <= 1),
      // Read per call too: a limit changed in the settings panel applies to the running task's next tool.
      readFileMaxLines: () => limit(logger, "context.readFileMaxLines", READ_FILE_MAX_LINES),
      toolResultMaxChars: () => limit(logger, "context.toolResultMaxChars", TOOL_RESULT_MAX_CHARS),
      outputMaxChars: () => limit(logger, "terminal.outputMaxChars", OUTPUT_MAX_CHARS),
      allowPrivateUrls: () => setting(logger, "mentions.allowPrivateUrls", false, (v): v is boolean => typeof v === "boolean"),
      redactSecrets: () => setting(logger, "redactSecrets", true, (v): v is boolean => typeof v === "boolean"),
      // Rule files are read for each request: an edited or toggled rule reaches the running task.
      rules: workspaceRules(storage, cwd, logger),
      // Tagged with the chat, so a server's sampling or form request during a call is asked there.
      mcp: mcp && mcpCaller !== undefined ? withCaller(mcp, mcpCaller) : mcp,
      requireTodosDone: setting(logger, "requireTodosDone", false, (v): v is boolean => typeof v === "boolean"),
      maxRequests: setting(logger, "maxRequests", 100, (v): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1000),
      saveOverflow: async (toolName, text) => {
        const file = vscode.Uri.joinPath(taskDir, `${toolName}-${++overflows}.txt`);
        await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
        return file.fsPath;
      },
      // Each task numbers its own commands; a long output is logged in the task's folder.
      terminal: createVsCodeTerminal(recorded((launcher ??= new VsCodeLauncher({ logger, sandbox: sandboxFor })), terminalOutput), { logDir: taskDir.scheme === "file" ? () => taskDir.fsPath : undefined }),
      // The path is read at each launch, so fixing the setting after a "no browser found" error works at once.
      browser: () => createPuppeteerSession({ logger, executablePath: () => setting(logger, "browser.executablePath", "", (v): v is string => typeof v === "string") }),
      // Before each reply's first edit, in a shadow repository in global storage.
      checkpoints: checkpoints?.forTask(folder.uri),
    });
  };
}
