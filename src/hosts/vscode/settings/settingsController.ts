import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";
import type { HistoryStore } from "../../../core/history/HistoryStore";
import { modeText } from "../../../core/modes/modeText";
import { DisposableStore, type Event } from "../../../shared/disposable";
import { RequestError, type CheckedParamsOf, type Done } from "../../../shared/protocol/requests";
import {
  type CodeIndexView,
  type EmbedderForm,
  parseSettingsMessage,
  SETTINGS_REQUESTS,
  type HostToSettings,
  type ProfileForm,
  type SettingsMethod,
  type SettingsRequests,
  type SettingsState,
  type SettingsToHost,
  type SettingsSection,
} from "../../../shared/protocol/settings";
import { RequestRouter } from "../requestRouter";
import { WebviewChannel } from "../webviewChannel";
import { affectsAutoApprove, applyApproveChanges, readApproveView } from "./autoApproveEdits";
import { deleteMode, modeView, saveMode, watchModeFiles } from "./modeEdits";
import { listModes, modeAsYaml, openModesFile } from "./modeFiles";
import { affectsOptions, applyOptionChanges, readOptionsView } from "./optionEdits";
import { deleteProfile, pinMode, saveProfile } from "./profileEdits";
import { affectsRules, createRuleFile, openRule, readRulesView, setRuleEnabled, watchRuleFiles } from "./ruleFiles";
import { detectImportSources, importFromAgent } from "./agentImport";
import { importProfilesFromExport } from "./profileImport";
import { affectsSkills, openSkill, readSkillsView, setSkillEnabled, watchSkillFiles } from "./skillFiles";
import { ModelLists } from "./modelLists";
import { findProfile, providerOptionsOf } from "./profiles";
import { reasoningOf } from "../../../shared/reasoning";
import { PROVIDER_OPTIONS } from "../../../shared/providerCatalog";
import type { ProfileStore } from "./profileStore";

type Outcome = { ok: boolean; message: string; field?: string };

/** What the "Codebase index" section shows and does (WorkspaceIndexes). */
export interface CodeIndexControls {
  view(): Promise<CodeIndexView>;
  /** Fires as the index's state changes (progress too: the page's updates are spaced out here). */
  readonly onDidChange: vscode.Event<void>;
  setEnabled(enabled: boolean): Promise<void>;
  /** Resolves once the rebuild has started. */
  rebuild(): Promise<void>;
  delete(): Promise<void>;
  /** The embedder form: saved, or refused with the field at fault. */
  setEmbedder(form: EmbedderForm): Promise<{ ok: boolean; message: string; field?: string }>;
}

/** Progress comes per file; the page needs a few updates a second, not thousands. */
const INDEX_UPDATE_MS = 250;
/** A request as one value, so one switch acts on every message and method. */
type SettingsAction = { [K in SettingsMethod]: { type: K } & CheckedParamsOf<SettingsRequests, K> }[SettingsMethod];

/** The form as a profile: empty model overrides are left out rather than saved as `{}`. */
function formToInput(form: ProfileForm): Record<string, unknown> {
  const { modelInfo, ...rest } = form;
  // A provider option left empty is no option: the profile keeps only what was filled in.
  const fields = Object.fromEntries(Object.entries(rest).filter(([key, v]) => !(PROVIDER_OPTIONS as readonly string[]).includes(key) || (typeof v === "string" && v.trim() !== "")));
  const info = Object.fromEntries(Object.entries(modelInfo ?? {}).filter(([, v]) => v !== undefined));
  return Object.keys(info).length > 0 ? { ...fields, modelInfo: info } : fields;
}

/**
 * The settings panel's host side: every message is parsed with zod, acted on through ProfileStore
 * (settings + SecretStorage) and the mode files, and answered with a result and the new state.
 * Works without a panel too, which is how the in-host tests drive it.
 */
export class SettingsController implements vscode.Disposable {
  /** The panel's page, once one is open. */
  private readonly channel: WebviewChannel<SettingsToHost, HostToSettings>;
  /** Everything sent to the panel, for the in-host tests. */
  readonly onDidPost: Event<HostToSettings>;
  private readonly listeners = new DisposableStore();
  private readonly requests: RequestRouter<SettingsRequests>;
  /** The section a page being opened scrolls to once it has its state. */
  private revealOnReady: SettingsSection | undefined;

  constructor(
    private readonly store: ProfileStore,
    private readonly storage: vscode.Uri,
    private readonly logger: Logger,
    /** Shared with the chats' model pickers, so a list fetched in one shows at once in the other. */
    private readonly models: ModelLists = new ModelLists(store),
    private readonly codeIndex?: CodeIndexControls,
    /** Where imported tasks go: the window's history, shared with the history view. */
    private readonly history?: HistoryStore,
  ) {
    this.channel = new WebviewChannel({ name: "settings", logger, parse: parseSettingsMessage, onMessage: (message) => this.handle(message) });
    this.onDidPost = this.channel.onDidPost;
    this.requests = new RequestRouter(SETTINGS_REQUESTS, (response) => this.post(response), logger, "settings");
    this.requests.onRequest("settings/listModels", (params) => this.models.list(params));
    this.requests.onRequest("settings/importFrom", async ({ kind, dryRun }) => {
      if (!this.history) throw new RequestError(l10n.t("There is no task history in this window to import into."));
      const summary = await importFromAgent(storage, this.history, kind, dryRun, logger);
      // Imported modes and rules show in their sections at once.
      if (!dryRun) void this.postState();
      return summary;
    });
    this.requests.onRequest("settings/importSettingsFile", async () => {
      const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [l10n.t("Settings export")]: ["json"] }, title: l10n.t("A Roo, Kilo or Zoo settings export") });
      return picked?.[0] ? importProfilesFromExport(store, picked[0]) : undefined;
    });
    for (const method of Object.keys(SETTINGS_REQUESTS) as SettingsMethod[]) {
      // Answered with a list or a summary, not a line for the status bar.
      if (method === "settings/listModels" || method === "settings/importFrom" || method === "settings/importSettingsFile") continue;
      this.requests.onRequest(method, async (params): Promise<Done> => {
        const outcome = await this.dispatch({ type: method, ...params } as SettingsAction);
        if (outcome && !outcome.ok) throw new RequestError(outcome.message, outcome.field);
        return { message: outcome?.message ?? "" };
      });
    }
    // A hand edit of settings.json or of a mode file, or the toggle command, shows in an open panel.
    const refresh = () => {
      if (this.channel.attached) void this.postState();
    };
    this.listeners.add(store.onDidChange(refresh));
    this.listeners.add(vscode.workspace.onDidChangeConfiguration((event) => (affectsAutoApprove(event) || affectsOptions(event)) && refresh()));
    this.listeners.add(watchModeFiles(storage, refresh));
    this.listeners.add(watchRuleFiles(storage, refresh));
    this.listeners.add(vscode.workspace.onDidChangeConfiguration((event) => affectsRules(event) && refresh()));
    this.listeners.add(watchSkillFiles(storage, refresh));
    this.listeners.add(vscode.workspace.onDidChangeConfiguration((event) => affectsSkills(event) && refresh()));
    if (codeIndex) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      this.listeners.add(
        codeIndex.onDidChange(() => {
          timer ??= setTimeout(() => {
            timer = undefined;
            refresh();
          }, INDEX_UPDATE_MS);
        }),
      );
      this.listeners.add({ dispose: () => clearTimeout(timer) });
    }
  }

  attach(webview: vscode.Webview): vscode.Disposable {
    return this.channel.attach(webview);
  }

  /** Entry point for what the panel sends; resolves when the message has been acted on and answered. */
  receive(raw: unknown): Promise<void> {
    return this.channel.receive(raw);
  }

  /** Every valid message is answered with the new state; a request is also answered with its result. */
  private async handle(message: SettingsToHost): Promise<void> {
    if (message.type === "request") {
      // The router answers it, a failure included.
      await this.requests.handle(message);
    } else {
      try {
        await this.dispatch(message);
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        this.logger.error(`settings: ${message.type} failed: ${text}`);
        // A plain message gets no answer, so the failure is shown here.
        void vscode.window.showErrorMessage(l10n.t("Kiln: {0}", text));
      }
    }
    await this.postState();
  }

  async state(): Promise<SettingsState> {
    const profiles = this.store.read();
    const modes = listModes(this.storage);
    const rules = readRulesView(this.storage);
    return {
      profiles: await Promise.all(
        profiles.profiles.map(async (p) => ({
          name: p.name,
          kind: p.kind,
          baseUrl: p.baseUrl,
          model: p.model,
          protocol: p.protocol,
          ...(p.modelInfo ? { modelInfo: p.modelInfo } : {}),
          ...(p.autoCondensePercent !== undefined ? { autoCondensePercent: p.autoCondensePercent } : {}),
          ...providerOptionsOf(p),
          ...reasoningOf(p),
          source: p.source,
          hasKey: await this.store.hasKey(p),
        })),
      ),
      active: (findProfile(profiles, profiles.active) ?? profiles.profiles[0])?.name ?? profiles.active,
      modes: modes.modes.map((m) => modeView(m, this.storage, profiles.pins[m.slug])),
      autoApprove: readApproveView(),
      options: readOptionsView(modes.modes.map((m) => m.slug)),
      rules: rules.view,
      // Its problems show in its own section, beside the skills they are about.
      skills: readSkillsView(this.storage),
      imports: detectImportSources(this.storage),
      errors: [...profiles.errors, ...modes.errors, ...rules.errors],
      hasWorkspace: modes.hasWorkspace,
      codeIndex: this.codeIndex ? await this.codeIndex.view() : { enabled: false, state: "off" },
    };
  }

  private async dispatch(message: Exclude<SettingsToHost, { type: "request" }> | SettingsAction): Promise<Outcome | undefined> {
    switch (message.type) {
      case "settings/ready":
        return undefined;
      case "settings/saveProfile": {
        const result = saveProfile(this.store.raw(), this.store.read(), message.original, formToInput(message.profile));
        if (!result.ok) return { ok: false, message: result.message, field: result.field };
        await this.store.apply(result.edit);
        return { ok: true, message: l10n.t("Saved profile {0}.", result.profile.name) };
      }
      case "settings/deleteProfile": {
        const result = deleteProfile(this.store.raw(), this.store.read(), message.name);
        if (!result.ok) return { ok: false, message: result.message };
        await this.store.apply(result.edit);
        return { ok: true, message: l10n.t("Deleted profile {0} and its key.", message.name) };
      }
      case "settings/setKey": {
        const profile = findProfile(this.store.read(), message.name);
        if (!profile) return { ok: false, message: l10n.t('there is no profile "{0}"', message.name), field: "key" };
        const refused = await this.store.setKey(profile, message.key);
        if (refused) return { ok: false, message: refused, field: "key" };
        return { ok: true, message: message.key.trim() === "" ? l10n.t("Removed the key of {0}.", profile.name) : l10n.t("Key of {0} saved in the secret storage.", profile.name) };
      }
      case "settings/setActive": {
        const profile = findProfile(this.store.read(), message.name);
        if (!profile) return { ok: false, message: l10n.t('there is no profile "{0}"', message.name) };
        await this.store.apply({ active: profile.source === "legacy" ? "" : profile.name });
        return { ok: true, message: l10n.t("{0} is the active profile.", profile.name) };
      }
      case "settings/pinMode": {
        const result = pinMode(this.store.raw(), this.store.read(), message.mode, message.profile ?? undefined);
        if (!result.ok) return { ok: false, message: result.message };
        await this.store.apply(result.edit);
        return { ok: true, message: message.profile ? l10n.t("Mode {0} uses {1}.", message.mode, message.profile) : l10n.t("Mode {0} uses the active profile.", message.mode) };
      }
      case "settings/openAutoApprove":
        await vscode.commands.executeCommand("workbench.action.openSettings", "kiln.autoApprove");
        return undefined;
      case "settings/setAutoApprove":
        return applyApproveChanges(message.changes);
      case "settings/setOptions":
        return applyOptionChanges(
          message.changes,
          listModes(this.storage).modes.map((m) => m.slug),
        );
      case "settings/saveMode":
        return saveMode(this.storage, message.scope, message.original, message.mode);
      case "settings/deleteMode":
        return deleteMode(this.storage, message.scope, message.slug);
      case "settings/editModes":
        await openModesFile(this.storage, message.scope);
        return undefined;
      case "settings/exportMode": {
        const mode = listModes(this.storage).modes.find((m) => m.slug === message.slug);
        if (!mode) return { ok: false, message: l10n.t('there is no mode "{0}"', message.slug) };
        await vscode.env.clipboard.writeText(modeAsYaml(mode));
        return { ok: true, message: l10n.t("Copied mode {0} as YAML to the clipboard.", modeText(mode).name) };
      }
      case "settings/setRuleEnabled":
        return setRuleEnabled(this.storage, message.id, message.enabled);
      case "settings/openRule":
        await openRule(this.storage, message.id);
        return undefined;
      case "settings/setSkillEnabled":
        return setSkillEnabled(this.storage, message.id, message.enabled);
      case "settings/openSkill":
        await openSkill(this.storage, message.id);
        return undefined;
      case "settings/newRule":
        return createRuleFile(message.name);
      case "settings/setIndexEnabled":
      case "settings/rebuildIndex":
      case "settings/deleteIndex":
        return this.indexAction(message);
      case "settings/setEmbedder": {
        if (!this.codeIndex) return { ok: false, message: l10n.t("There is no codebase index in this window.") };
        const { type: _type, ...form } = message;
        return this.codeIndex.setEmbedder(form);
      }
    }
  }

  private async indexAction(message: Extract<SettingsAction, { type: "settings/setIndexEnabled" | "settings/rebuildIndex" | "settings/deleteIndex" }>): Promise<Outcome> {
    const index = this.codeIndex;
    if (!index) return { ok: false, message: l10n.t("There is no codebase index in this window.") };
    switch (message.type) {
      case "settings/setIndexEnabled":
        await index.setEnabled(message.enabled);
        return { ok: true, message: message.enabled ? l10n.t("Indexing this workspace.") : l10n.t("The codebase index is off for this workspace.") };
      case "settings/rebuildIndex":
        await index.rebuild();
        return { ok: true, message: l10n.t("Indexing the workspace again, from nothing.") };
      case "settings/deleteIndex":
        await index.delete();
        return { ok: true, message: l10n.t("Deleted the saved index; the codebase index is off for this workspace.") };
    }
  }

  private async postState(): Promise<void> {
    this.post({ type: "settings/state", state: await this.state() });
    // A page opened at a section scrolls there once its first state is drawn.
    if (this.revealOnReady) this.post({ type: "settings/reveal", section: this.revealOnReady });
    this.revealOnReady = undefined;
  }

  /** Shows a section: now, on a page that is up; else once the new page has its state. */
  reveal(section: SettingsSection, pageIsUp: boolean): void {
    if (pageIsUp) this.post({ type: "settings/reveal", section });
    else this.revealOnReady = section;
  }

  private post(message: HostToSettings): void {
    this.channel.post(message);
  }

  dispose(): void {
    this.listeners.dispose();
    this.channel.dispose();
  }
}
