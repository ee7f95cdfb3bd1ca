import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { createEmbedder, type EmbedderConfig, type EmbedderKind } from "../../../core/codeIndex/embedder";
import { deleteStore, indexDirFor, storeInfo } from "../../../core/codeIndex/indexDatabase";
import { checkTeamUrl, displayUrl } from "../../../core/codeIndex/team/teamUrl";
import { EMBEDDER_HINTS } from "../../../shared/embedders";
import type { CodeIndexView, EmbedderForm } from "../../../shared/protocol/settings";
import type { CodeIndexControls } from "../settings/settingsController";
import type { CodeSearchIndex, IndexProgress, RefreshSummary } from "../../../core/codeIndex/types";
import type { Logger } from "../../../core/ports";
import { WorkerCodeIndex } from "../../../platform/node/workerCodeIndex";
import { KILN, readSetting } from "../settings/kilnSettings";

/** Where the embedder's key is kept (SecretStorage), set by "Kiln: Set Embedder API Key". */
export const EMBEDDER_KEY_SECRET = "kiln.index.embedderApiKey";
/** Where the team index server's password is kept (SecretStorage), set by "Kiln: Set Team Index Password". */
export const POSTGRES_PASSWORD_SECRET = "kiln.index.postgresPassword";

/** The slice of SecretStorage the index needs: the embedder's key. */
export interface EmbedderKeyStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

/** Saves come in bursts (a formatter, a branch switch): they are indexed together once the burst ends. */
const SETTLE_MS = 300;

export type IndexState =
  | { state: "off" }
  | { state: "indexing"; progress?: IndexProgress }
  /** `restored`: the last refresh started from the index saved by an earlier session; `changed`: files it read anew. */
  | { state: "ready"; files: number; chunks: number; changed: number; restored: boolean }
  | { state: "failed"; message: string };

/**
 * The codebase index of the window's folder, in a worker thread: built in the background as soon as
 * the folder is open (kiln.index.enabled), kept up to date by a file watcher, and shown in the
 * status bar. Tasks get it through `forFolder`; turning the setting off ends the worker. The index is
 * saved under `storeParent` (the extension's global storage, outside the extension's folder, so an
 * update keeps it), one folder per workspace: opening the folder again reads only what changed.
 */
export class WorkspaceIndexes implements vscode.Disposable, CodeIndexControls {
  private index: WorkerCodeIndex | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly changed = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: IndexState = { state: "off" };
  /** Whether this session's index started from a saved one (shown until a rebuild). */
  private restored = false;
  /** Why the configured embedder is not giving vectors (its settings, or its last answer). */
  private embedderProblem: string | undefined;
  /** The team server's password from SecretStorage, read before a team index starts (null: none is set). */
  private teamPassword: string | null | undefined;
  /** The team server the running index uses (kiln.index.postgresUrl), or undefined for this machine's. */
  private teamUrl: string | undefined;
  private readonly status = vscode.window.createStatusBarItem("kiln.codeIndex", vscode.StatusBarAlignment.Left, 0);
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly folder: () => string | undefined,
    private readonly logger: Logger,
    private readonly storeParent?: string,
    private readonly workerFile?: string,
    private readonly secrets?: EmbedderKeyStore,
  ) {
    this.status.name = l10n.t("Kiln codebase index");
    this.disposables.push(
      this.status,
      this.changes,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("kiln.index.postgresUrl")) this.restart();
        else if (e.affectsConfiguration("kiln.index.enabled")) this.start();
        else if (["kiln.index.embedder", "kiln.index.embedderModel", "kiln.index.embedderBaseUrl", "kiln.index.embedderRegion"].some((key) => e.affectsConfiguration(key))) void this.reconfigure();
      }),
      vscode.commands.registerCommand("kiln.index.setEmbedderKey", () => this.askEmbedderKey()),
      // A string argument sets it without asking (a keybinding, another extension); "" removes it.
      vscode.commands.registerCommand("kiln.index.setPostgresPassword", (password?: unknown) => this.setPostgresPassword(typeof password === "string" ? password : undefined)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.start()),
      vscode.commands.registerCommand("kiln.index.rebuild", () => this.rebuild()),
      vscode.commands.registerCommand("kiln.index.delete", () => this.delete()),
    );
  }

  /** Builds the folder's index in the background, or ends it where the setting is off. */
  start(): void {
    const cwd = this.folder();
    if (!cwd || !readSetting(KILN.index.enabled, this.logger)) {
      this.stop();
      return;
    }
    if (this.index?.root === cwd) return;
    const teamUrl = readSetting(KILN.index.postgresUrl, this.logger).trim() || undefined;
    if (teamUrl && this.teamPassword === undefined) {
      // The password is read from SecretStorage first (once); the index starts right after.
      void this.readTeamPassword().then(() => this.start());
      return;
    }
    this.stop();
    this.restored = false;
    if (teamUrl) {
      try {
        checkTeamUrl(teamUrl);
      } catch (err) {
        this.show({ state: "failed", message: `kiln.index.postgresUrl: ${err instanceof Error ? err.message : String(err)}` });
        return;
      }
    }
    this.teamUrl = teamUrl;
    this.index = new WorkerCodeIndex(cwd, {
      ...(this.storeParent && { storeDir: indexDirFor(this.storeParent, cwd) }),
      ...(this.workerFile && { workerFile: this.workerFile }),
      ...(teamUrl && { team: { url: teamUrl, ...(this.teamPassword && { password: this.teamPassword }) } }),
    });
    this.watch(cwd);
    // The embedder first: the first refresh then gives the chunks their vectors.
    void this.configureEmbedder().then(() => this.refresh());
  }

  /** The index a new task searches, or undefined where it is off (the task is then not offered codebase_search). */
  forFolder(cwd: string): CodeSearchIndex | undefined {
    if (!readSetting(KILN.index.enabled, this.logger)) return undefined;
    if (this.index?.root !== cwd) this.start();
    const index = this.index?.root === cwd ? this.index : undefined;
    if (!index) return undefined;
    // A task's refresh updates the status bar like the background one.
    return {
      refresh: (options) => this.track(index.refresh({ ...options, onProgress: (p) => (this.show({ state: "indexing", progress: p }), options?.onProgress?.(p)) })),
      search: (query, options) => index.search(query, options),
    };
  }

  get state(): IndexState {
    return this.current;
  }

  /** What the settings page's "Codebase index" section shows. */
  async view(): Promise<CodeIndexView> {
    const cwd = this.folder();
    // A team index is kept on its server: what this machine saved before it is not what is searched.
    const saved = cwd && this.storeParent && !this.teamUrl ? await storeInfo(indexDirFor(this.storeParent, cwd)) : undefined;
    const state = this.current;
    const status = state.state === "ready" ? await this.index?.status().catch(() => undefined) : undefined;
    return {
      enabled: readSetting(KILN.index.enabled, this.logger),
      state: state.state,
      ...(state.state === "indexing" && state.progress && { filesDone: state.progress.filesDone, filesTotal: state.progress.filesTotal }),
      ...(state.state === "ready" && { files: state.files, chunks: state.chunks, restored: state.restored }),
      ...(state.state === "failed" && { message: state.message }),
      ...(saved && { saved }),
      ...(status?.embedder && { embedder: status.embedder, vectors: status.vectors ?? 0 }),
      ...(this.embedderProblem && { embedderProblem: this.embedderProblem }),
      ...(status?.team && { team: status.team }),
      embedderSettings: {
        kind: readSetting(KILN.index.embedder, this.logger) as EmbedderForm["kind"],
        model: readSetting(KILN.index.embedderModel, this.logger),
        baseUrl: readSetting(KILN.index.embedderBaseUrl, this.logger),
        region: readSetting(KILN.index.embedderRegion, this.logger),
        hasKey: Boolean(await this.secrets?.get(EMBEDDER_KEY_SECRET)),
      },
    };
  }

  /**
   * The settings page's embedder form: checked as the index would make it (a bad field is named and
   * nothing is saved), then written to the user settings and the key to SecretStorage; the index
   * then uses it and gives the chunks its vectors.
   */
  async setEmbedder(form: EmbedderForm): Promise<{ ok: boolean; message: string; field?: string }> {
    const key = form.key === undefined ? (await this.secrets?.get(EMBEDDER_KEY_SECRET)) || undefined : form.key.trim() || undefined;
    if (form.kind !== "none") {
      const model = form.model.trim() || EMBEDDER_HINTS[form.kind].model;
      try {
        createEmbedder({
          kind: form.kind,
          model,
          ...(form.baseUrl.trim() && { baseUrl: form.baseUrl.trim() }),
          ...(key && { apiKey: key }),
          ...(form.region.trim() && { region: form.region.trim() }),
        });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const field = /API key/i.test(message) ? "key" : /base URL/i.test(message) ? "baseUrl" : /model/i.test(message) ? "model" : "kind";
        return { ok: false, message, field };
      }
      form = { ...form, model };
    }
    if (form.key !== undefined && this.secrets) {
      if (form.key.trim() === "") await this.secrets.delete(EMBEDDER_KEY_SECRET);
      else await this.secrets.store(EMBEDDER_KEY_SECRET, form.key.trim());
    }
    const config = vscode.workspace.getConfiguration("kiln");
    const values: [string, string][] = [
      ["index.embedderModel", form.kind === "none" ? "" : form.model.trim()],
      ["index.embedderBaseUrl", form.kind === "none" ? "" : form.baseUrl.trim()],
      ["index.embedderRegion", form.kind === "bedrock" ? form.region.trim() : ""],
      // Last: its change is what makes the index take the new embedder.
      ["index.embedder", form.kind],
    ];
    const before = values.map(([name]) => config.get<string>(name));
    for (const [name, value] of values) await config.update(name, value === "" || (name === "index.embedder" && value === "none") ? undefined : value, vscode.ConfigurationTarget.Global);
    // Only the key changed: no setting's change tells the index, so it is told here.
    if (values.every(([, value], i) => (value || undefined) === (before[i] || undefined) || (i === 3 && value === "none" && !before[i]))) await this.reconfigure();
    return {
      ok: true,
      message: form.kind === "none" ? l10n.t("The codebase index ranks by words alone.") : l10n.t("Saved: the index gives the chunks vectors from {0} ({1}).", form.kind, form.model),
    };
  }

  /** Turns the index on or off for this workspace (kiln.index.enabled's workspace value); the setting's change starts or ends it. */
  async setEnabled(enabled: boolean): Promise<void> {
    await vscode.workspace.getConfiguration("kiln").update("index.enabled", enabled, vscode.ConfigurationTarget.Workspace);
  }

  /** Indexes the folder again from nothing (the saved index is deleted first); resolves once it has started. */
  async rebuild(): Promise<void> {
    this.start();
    const index = this.index;
    if (!index) {
      void vscode.window.showInformationMessage(l10n.t("Kiln's codebase index is off for this workspace (kiln.index.enabled)."));
      return;
    }
    this.restored = false;
    this.show({ state: "indexing" });
    await index.clear();
    void this.refresh();
  }

  /**
   * Deletes the folder's saved index and turns indexing off for this workspace (kiln.index.enabled),
   * since an index that is on would be built again at once.
   */
  async delete(): Promise<void> {
    const cwd = this.folder();
    // From the worker that holds it first, so it closes the database before the folder goes. A team
    // index stays on its server for the others: only this machine's record of it goes.
    if (!this.teamUrl) await this.index?.clear().catch(() => undefined);
    this.stop();
    if (cwd && this.storeParent) await deleteStore(indexDirFor(this.storeParent, cwd));
    await vscode.workspace.getConfiguration("kiln").update("index.enabled", false, vscode.ConfigurationTarget.Workspace);
  }

  private async refresh(): Promise<void> {
    const index = this.index;
    if (!index) return;
    this.show({ state: "indexing" });
    // In the background, so it also waits for the vectors: what it reports says whether the embedder works.
    await this.track(index.refresh({ onProgress: (progress) => this.show({ state: "indexing", progress }), waitForVectors: true })).catch(() => undefined);
  }

  private async track(run: Promise<RefreshSummary>): Promise<RefreshSummary> {
    try {
      const summary = await run;
      for (const problem of summary.problems ?? []) this.logger.warn(`codebase index: ${problem}`);
      // A refresh that gave vectors (or tried to) says whether the embedder works now.
      if (summary.embedded !== undefined) this.embedderProblem = summary.problems?.find((p) => p.includes("embedder"));
      if (summary.restored) this.restored = true;
      this.show({ state: "ready", files: summary.filesTotal, chunks: summary.chunks, changed: summary.changed, restored: this.restored });
      return summary;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (message !== "cancelled") {
        this.logger.warn(`codebase index: ${message}`);
        this.show({ state: "failed", message });
      }
      throw err;
    }
  }

  /**
   * Tells the worker which embedder to use, from kiln.index.embedder* and the key in SecretStorage;
   * a configuration that cannot work (no model, no URL) is said in the settings page and the log, and
   * the index goes on by words.
   */
  private async configureEmbedder(): Promise<void> {
    const index = this.index;
    if (!index) return;
    const kind = readSetting(KILN.index.embedder, this.logger);
    let config: EmbedderConfig | undefined;
    this.embedderProblem = undefined;
    if (kind !== "none") {
      const apiKey = (await this.secrets?.get(EMBEDDER_KEY_SECRET)) || undefined;
      const baseUrl = readSetting(KILN.index.embedderBaseUrl, this.logger);
      const region = readSetting(KILN.index.embedderRegion, this.logger);
      config = { kind: kind as EmbedderKind, model: readSetting(KILN.index.embedderModel, this.logger), ...(baseUrl && { baseUrl }), ...(apiKey && { apiKey }), ...(region && { region }) };
      try {
        createEmbedder(config);
      } catch (err) {
        this.embedderProblem = err instanceof Error ? err.message : String(err);
        this.logger.warn(`codebase index: ${this.embedderProblem}`);
        config = undefined;
      }
    }
    await index.setEmbedder(config).catch((err: unknown) => this.logger.warn(`codebase index: ${err instanceof Error ? err.message : String(err)}`));
    this.changes.fire();
  }

  /** The embedder's settings or key changed: use the new one, and give the chunks its vectors. */
  private async reconfigure(): Promise<void> {
    if (!this.index) return;
    await this.configureEmbedder();
    await this.refresh();
  }

  private async askEmbedderKey(): Promise<void> {
    const key = await vscode.window.showInputBox({
      title: l10n.t("Kiln: embedder API key"),
      prompt: l10n.t("The key of the embedding service in kiln.index.embedder; kept in VS Code's secret storage. Leave empty to remove it."),
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined || !this.secrets) return;
    if (key.trim() === "") await this.secrets.delete(EMBEDDER_KEY_SECRET);
    else await this.secrets.store(EMBEDDER_KEY_SECRET, key.trim());
    await this.reconfigure();
  }

  private async setPostgresPassword(given: string | undefined): Promise<void> {
    const password =
      given ??
      (await vscode.window.showInputBox({
        title: l10n.t("Kiln: team index password"),
        prompt: l10n.t("The password of the PostgreSQL user in kiln.index.postgresUrl; kept in VS Code's secret storage. Leave empty to remove it."),
        password: true,
        ignoreFocusOut: true,
      }));
    if (password === undefined || !this.secrets) return;
    if (password === "") await this.secrets.delete(POSTGRES_PASSWORD_SECRET);
    else await this.secrets.store(POSTGRES_PASSWORD_SECRET, password);
    this.teamPassword = password === "" ? null : password;
    if (readSetting(KILN.index.postgresUrl, this.logger).trim()) this.restart();
  }

  private async readTeamPassword(): Promise<void> {
    this.teamPassword = (await this.secrets?.get(POSTGRES_PASSWORD_SECRET)) || null;
  }

  /** Starts the index again with the team settings as they are now (a new server, a new password). */
  private restart(): void {
    this.stop();
    this.start();
  }

  private watch(cwd: string): void {
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(cwd), "**/*"));
    const note = (uri: vscode.Uri) => {
      const rel = vscode.workspace.asRelativePath(uri, false);
      if (rel === uri.fsPath || rel.startsWith("..")) return;
      this.changed.add(rel.split("\\").join("/"));
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush(), SETTLE_MS);
    };
    this.watcher.onDidChange(note);
    this.watcher.onDidCreate(note);
    this.watcher.onDidDelete(note);
  }

  private async flush(): Promise<void> {
    const index = this.index;
    const paths = [...this.changed];
    this.changed.clear();
    if (!index || paths.length === 0) return;
    try {
      await index.refreshPaths(paths);
      // A created folder or a renamed one reaches the watcher as one event: the refresh walks it.
      await this.track(index.refresh());
    } catch (err) {
      this.logger.warn(`codebase index: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private show(state: IndexState): void {
    this.current = state;
    this.changes.fire();
    switch (state.state) {
      case "off":
        this.status.hide();
        return;
      case "indexing":
        this.status.text = state.progress ? `$(sync~spin) ${l10n.t("Indexing {0}/{1}", state.progress.filesDone, state.progress.filesTotal)}` : `$(sync~spin) ${l10n.t("Indexing")}`;
        this.status.tooltip = l10n.t("Kiln is indexing the workspace's code for codebase_search (on this machine, in the background).");
        break;
      case "ready":
        this.status.text = `$(search) ${state.files === 1 ? l10n.t("1 file indexed") : l10n.t("{0} files indexed", state.files.toLocaleString())}`;
        this.status.tooltip = this.teamUrl
          ? l10n.t(
              "Kiln's codebase index on the team's server ({0}): {1} files, {2} chunks. Kept up to date as files change; kiln.index.enabled turns it off.",
              displayUrl(this.teamUrl),
              state.files,
              state.chunks,
            )
          : l10n.t("Kiln's codebase index: {0} files, {1} chunks, full-text ranking. Kept up to date as files change; kiln.index.enabled turns it off.", state.files, state.chunks);
        break;
      case "failed":
        this.status.text = `$(warning) ${l10n.t("Index failed")}`;
        this.status.tooltip = l10n.t("Kiln could not index the workspace: {0}", state.message);
        break;
    }
    this.status.show();
  }

  private stop(): void {
    this.teamUrl = undefined;
    clearTimeout(this.timer);
    this.changed.clear();
    this.watcher?.dispose();
    this.watcher = undefined;
    const index = this.index;
    this.index = undefined;
    this.show({ state: "off" });
    void index?.dispose();
  }

  dispose(): void {
    this.stop();
    for (const d of this.disposables) d.dispose();
  }
}
