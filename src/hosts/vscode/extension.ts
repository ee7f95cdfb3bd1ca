import { SettingsSectionSchema } from "../../shared/protocol/settings";
import { TaskNotifications } from "./chat/taskNotifications";
import { WELCOME_DONE_KEY, WelcomeSetup } from "./settings/welcomeSetup";
import * as vscode from "vscode";
import { applyL10nBundle } from "../../shared/l10nBundle";
import { DEFAULT_RETRY } from "../../core/agent/retry";
import { createProvider } from "../../core/llm/createProvider";
import { registerSecretEnvironment } from "../../core/llm/redact";
import { DEFAULT_MODELS, apiKeySecretName, type ProviderKind } from "../../core/llm/types";
import { resolveModelInfo } from "../../core/llm/models";
import { ChatSession, type ChatSessionDeps } from "./chat/ChatSession";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chat/ChatViewProvider";
import { setApiKey } from "./settings/apiKey";
import { OutputLogger } from "./logger";
import { readProviderSettings, resolveProviderConfig } from "./settings/providerConfig";
import { workspaceSkills } from "./settings/skillFiles";
import { offerImport } from "./settings/agentImport";
import { importProfilesFromExport } from "./settings/profileImport";
import { KILN, rawSetting, readSection, readSetting } from "./settings/kilnSettings";
import { setUpWebview } from "./chat/webviewSetup";
import { loadWorkspaceModes, toolboxFactory, workFolder, workspaceProblem } from "./chat/agentSetup";
import { WorkspaceIndexes, type IndexState } from "./codeIndex/workspaceIndexes";
import { ORIGINAL_SCHEME, OriginalDocuments, PROPOSED_SCHEME, ProposalFileSystem } from "./review/proposalDocuments";
import { TaskReview } from "./review/taskReview";
import { McpSetup } from "./mcp/mcpSetup";
import { GlobalStateMcpTrust } from "./mcp/mcpTrust";
import { ChatHistory } from "./history/chatHistory";
import { HistoryStore } from "../../core/history/HistoryStore";
import { routeMcpRequests } from "./chat/chatMcpRequests";
import { McpController } from "./mcp/mcpController";
import { HunkReview } from "./review/hunkReview";
import { VsCodeFileSystem } from "./VsCodeFileSystem";
import { watchModeFiles } from "./settings/modeEdits";
import { registerAutoApproveToggle } from "./settings/autoApproveSettings";
import { registerEditorActions } from "./actions/editorActions";
import { registerCodeActions } from "./actions/codeActions";
import { registerTerminalActions } from "./actions/terminalActions";
import { ProfileStore } from "./settings/profileStore";
import { findProfile, secretNameOf } from "./settings/profiles";
import { ModelLists } from "./settings/modelLists";
import { SettingsController } from "./settings/settingsController";
import { SettingsPanel } from "./settings/settingsPanel";
import { ChatInputs } from "./chat/chatInputs";
import { formatProblems } from "./actions/problems";
import { LastTerminalOutput } from "./terminal/terminalOutput";
import { registerCheckpointDiffs, WorkspaceCheckpoints } from "./history/checkpointActions";
import { NodeFileSystem } from "../../platform/node/nodeFileSystem";

/** What the extension exports outside production mode, for the tests running in the real host. */
export interface KilnTestApi {
  sidebar: ChatSession;
  /** The MCP servers and their config files. */
  mcp: McpSetup;
  /** Task history: the store and the export. */
  history: ChatHistory;
  view: ChatViewProvider;
  onDidLog: OutputLogger["onDidLog"];
  readSecret(kind: ProviderKind): Thenable<string | undefined>;
  setSecretForTest(kind: ProviderKind, value: string | undefined): Thenable<void>;
  globalStorageUri: vscode.Uri;
  logUri: vscode.Uri;
  /** The settings panel's message handler, driven directly by the tests. */
  settings: SettingsController;
  settingsPanel: SettingsPanel;
  profiles: ProfileStore;
  /** The stored key of a profile by name, to check where keys go. */
  readProfileKey(name: string): Promise<string | undefined>;
  welcome: WelcomeSetup;
  notifications: TaskNotifications;
  /** Whether notifications take the window as focused: undefined goes by the window's real state. */
  assumeFocusForTest(focused: boolean | undefined): void;
  /** As on a fresh install: the welcome was never finished or skipped. */
  forgetWelcomeForTest(): Thenable<void>;
  /** The first-run import offer, as at activation: the notification's text, or undefined when there is nothing new to offer. */
  offerImportForTest(): Promise<string | undefined>;
  /** The codebase index's state, as its status bar item shows it. */
  codeIndexState(): IndexState;
}

export function activate(context: vscode.ExtensionContext): KilnTestApi | undefined {
  // The editor's environment may hold tokens (GITHUB_TOKEN, a DB password); commands inherit it, and
  // what they print reaches tool results as [redacted] while kiln.redactSecrets is on.
  registerSecretEnvironment(process.env);
  const logger = new OutputLogger();
  context.subscriptions.push(logger);
  // The display language's bundle, for the strings of core and host code (l10nBundle.ts).
  const badBundle = applyL10nBundle(vscode.l10n.bundle);
  if (badBundle) logger.warn(`the translation for ${vscode.env.language} is not used: ${badBundle}`);

  const profiles = new ProfileStore(context.secrets, logger);
  // One cache for the settings panel's model picker and the chats': a list fetched in one shows at once in the other.
  const models = new ModelLists(profiles);
  // The folder's codebase index, built in a worker thread from now on, for codebase_search.
  const codeIndexes = new WorkspaceIndexes(() => workFolder()?.uri.fsPath, logger, vscode.Uri.joinPath(context.globalStorageUri, "codeIndex").fsPath, undefined, context.secrets);
  context.subscriptions.push(codeIndexes);
  codeIndexes.start();
  // One store per window, shared by the history view and the settings page's import.
  const historyStore = new HistoryStore(vscode.Uri.joinPath(context.globalStorageUri, "tasks").fsPath, new NodeFileSystem());
  const settings = new SettingsController(profiles, context.globalStorageUri, logger, models, codeIndexes, historyStore);
  const settingsPanel = new SettingsPanel(context.extensionUri, settings);
  const openImport = () => settingsPanel.open("import");
  const welcome = new WelcomeSetup(context.globalState, context.secrets, profiles, logger);
  const notifications = new TaskNotifications({ logger, showChat: () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`), focused: () => notificationFocus() });
  context.subscriptions.push(profiles, settings, settingsPanel, welcome, notifications);

  // The diff editor's two sides: the original, read-only, and the proposal, in memory and editable.
  // MCP servers start with the extension, so their tools are ready for the first task.
  // Project servers start only once allowed; the approvals live in globalState, outside any repository.
  const mcp = new McpSetup(context.globalStorageUri, logger, String(context.extension.packageJSON.version), new GlobalStateMcpTrust(context.globalState));
  context.subscriptions.push(
    mcp,
    vscode.commands.registerCommand("kiln.editGlobalMcpConfig", () => mcp.editGlobal()),
  );
  // Servers' sampling and form requests are asked in the chat whose call they come from, else the sidebar.
  void mcp.hub.setRequests(routeMcpRequests(() => sidebar.mcpRequests));
  void mcp.reload();
  const mcpView = new McpController(mcp, logger);
  context.subscriptions.push(mcpView);

  const history = new ChatHistory(historyStore, logger);
  context.subscriptions.push(history);
  beforeExit = () => history.flushAll();

  const review = { originals: new OriginalDocuments(), proposals: new ProposalFileSystem(), hunks: new HunkReview() };
  context.subscriptions.push(
    review.proposals,
    review.hunks.register(),
    vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, review.originals),
    vscode.workspace.registerFileSystemProvider(PROPOSED_SCHEME, review.proposals, { isCaseSensitive: true }),
    registerCheckpointDiffs(),
  );

  // @terminal reads what Kiln's terminals printed last; workflows also live in global storage.
  const terminalOutput = new LastTerminalOutput();
  // One skills source per folder, so each problem in a SKILL.md is logged once.
  const skillSources = new Map<string, ReturnType<typeof workspaceSkills>>();
  const skillsOf = (root: string | undefined) => {
    const key = root ?? "";
    if (!skillSources.has(key)) skillSources.set(key, workspaceSkills(context.globalStorageUri, root, logger));
    return skillSources.get(key)!();
  };
  const inputs = new ChatInputs(vscode.Uri.joinPath(context.globalStorageUri, "commands").fsPath, logger, { problems: formatProblems, terminalOutput: () => terminalOutput.text() }, skillsOf);
  const deps: ChatSessionDeps = {
    logger,
    inputs,
    profiles,
    models,
    getProvider: async () => createProvider(await resolveProviderConfig(context.secrets, logger)),
    retryPolicy: () => ({ ...DEFAULT_RETRY, maxRetries: readSetting(KILN.provider.retries, logger) }),
    // Read per request: a value out of bounds is logged and its default used (the core checks again).
    replyLimits: () => {
      const reply = readSection(KILN.reply, logger);
      return { maxReplyChars: reply.maxChars, maxToolArgChars: reply.toolArgMaxChars, maxToolCalls: reply.maxToolCalls };
    },
    // Validated by the core, which names any bad field in the log.
    modelOverrides: () => rawSetting(KILN.provider.modelInfo),
    toolProtocol: () => readSetting(KILN.provider.protocol, logger),
    workspaceProblem,
    createToolbox: toolboxFactory(context.globalStorageUri, logger, review, terminalOutput, mcp.hub, new WorkspaceCheckpoints(context.globalStorageUri, logger), codeIndexes),
    modeFiles: { load: () => loadWorkspaceModes(context.globalStorageUri, logger), watch: (onChange) => watchModeFiles(context.globalStorageUri, onChange) },
    providerSummary: () => {
      const settings = readProviderSettings();
      const model = settings.model || DEFAULT_MODELS[settings.kind];
      return { kind: settings.kind, model, images: resolveModelInfo(settings.kind, model, deps.modelOverrides()).info.supportsImages };
    },
    mcp: mcpView,
    history,
    welcome,
    notifications,
  };

  const sidebar = new ChatSession("sidebar", deps);
  const view = new ChatViewProvider(context.extensionUri, sidebar);
  context.subscriptions.push(
    sidebar,
    view,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.commands.registerCommand("kiln.newTask", async () => {
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      sidebar.newTask();
    }),
    vscode.commands.registerCommand("kiln.openInTab", () => openInTab(context, deps)),
    vscode.commands.registerCommand("kiln.openMcpServers", async () => {
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      sidebar.showMcp();
    }),
    vscode.commands.registerCommand("kiln.showHistory", async () => {
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      sidebar.showHistory();
    }),
    vscode.commands.registerCommand("kiln.setApiKey", (key?: unknown, kind?: unknown) => setApiKey(context.secrets, logger, key, kind)),
    // An argument names the section to open at (the chat's Edit modes…); anything else opens the top.
    vscode.commands.registerCommand("kiln.openSettings", (section?: unknown) => void settingsPanel.open(SettingsSectionSchema.safeParse(section).data)),
    vscode.commands.registerCommand("kiln.importFromAgents", openImport),
    // With a file (tests, other extensions): its profiles are imported; the settings page asks with a dialog.
    vscode.commands.registerCommand("kiln.importSettingsFile", (file?: unknown) => (file instanceof vscode.Uri ? importProfilesFromExport(profiles, file) : openImport())),
    vscode.commands.registerCommand("kiln.setUpProvider", async () => {
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      welcome.show();
    }),
    new TaskReview(() => sidebar.taskChanges, review.originals, new VsCodeFileSystem(), logger).register(),
    // The sidebar's chat: the keybinding works from the Kiln view, where that chat is.
    vscode.commands.registerCommand("kiln.cycleMode", () => sidebar.cycleMode()),
    registerAutoApproveToggle(),
    // Editor menu, lightbulb, terminal menu and keybindings ask the sidebar chat.
    registerEditorActions(sidebar),
    registerCodeActions(),
    registerTerminalActions(sidebar, logger),
  );
  logger.info(`Kiln ${String(context.extension.packageJSON.version)} activated`);
  // Users coming from Kilo, Roo, Zoo or Cline are offered their data once per agent found; tests ask for it themselves.
  if (context.extensionMode === vscode.ExtensionMode.Production)
    void offerImport(context.globalStorageUri, context.globalState, openImport).catch((err: unknown) => logger.warn(`import offer: ${String(err)}`));

  if (context.extensionMode === vscode.ExtensionMode.Production) return undefined;
  return {
    sidebar,
    view,
    onDidLog: logger.onDidLog,
    readSecret: (kind) => context.secrets.get(apiKeySecretName(kind)),
    welcome,
    notifications,
    assumeFocusForTest: (focused) => (assumedFocus = focused),
    forgetWelcomeForTest: () => context.globalState.update(WELCOME_DONE_KEY, undefined),
    offerImportForTest: () => offerImport(context.globalStorageUri, context.globalState, openImport),
    codeIndexState: () => codeIndexes.state,
    setSecretForTest: (kind, value) => (value === undefined ? context.secrets.delete(apiKeySecretName(kind)) : context.secrets.store(apiKeySecretName(kind), value)),
    globalStorageUri: context.globalStorageUri,
    logUri: context.logUri,
    settings,
    settingsPanel,
    profiles,
    mcp,
    history,
    readProfileKey: async (name) => {
      const profile = findProfile(profiles.read(), name);
      return profile ? context.secrets.get(secretNameOf(profile)) : undefined;
    },
  };
}

function openInTab(context: vscode.ExtensionContext, deps: ChatSessionDeps): void {
  const panel = vscode.window.createWebviewPanel("kiln.chatTab", "Kiln", vscode.ViewColumn.Beside, { retainContextWhenHidden: true });
  panel.iconPath = vscode.Uri.joinPath(context.extensionUri, "assets", "kiln.svg");
  const session = new ChatSession("tab", deps);
  setUpWebview(panel.webview, context.extensionUri);
  const attachment = session.attach(panel.webview);
  panel.onDidDispose(() => {
    attachment.dispose();
    session.dispose();
  });
}

/** The in-host tests' answer to "is the window focused?" (code-server's window state is the browser's). */
let assumedFocus: boolean | undefined;
function notificationFocus(): boolean {
  return assumedFocus ?? vscode.window.state.focused;
}

/** What must finish before the extension host goes (a reload, the window closing). */
let beforeExit: () => Promise<void> = async () => {};

/** VS Code waits for this before it disposes context.subscriptions. */
export function deactivate(): Promise<void> {
  return beforeExit();
}
