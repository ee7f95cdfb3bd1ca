import * as l10n from "@vscode/l10n";
import { basename, dirname } from "node:path";
import * as vscode from "vscode";
import type { AutoApproveSettings } from "../../../core/approval/settings";
import type { Logger } from "../../../core/ports";
import { commandSandbox, sandboxApproval, unavailableNote, type CommandSandbox, type SandboxState } from "../../../core/sandbox";
import { KILN, readSection } from "../settings/kilnSettings";

/**
 * The `kiln.commands.sandbox*` settings for the extension: read at each command and each approval,
 * so turning the sandbox on or off applies to a running task's next command.
 */
export class VsCodeCommandSandbox {
  private readonly warned = new Set<string>();

  constructor(
    /** The extension's global storage: task history, checkpoints, the global MCP settings. */
    private readonly storage: vscode.Uri,
    private readonly logger: Logger,
  ) {}

  /** What the settings give on this machine for commands in `workspace`. */
  state(workspace: string): SandboxState {
    const settings = readSection(KILN.commands, this.logger);
    const state = commandSandbox({ enabled: settings.sandbox, network: settings.sandboxNetwork, workspace, hide: this.kilnData() });
    if (state.kind === "unavailable") this.warnOnce(state.reason);
    return state;
  }

  /** The auto-approve settings with the sandbox's say added (src/core/sandbox, sandboxApproval). */
  approval(settings: AutoApproveSettings, workspace: string): AutoApproveSettings {
    return { ...settings, execute: { ...settings.execute, ...sandboxApproval(this.state(workspace)) } };
  }

  /** For the launcher: the sandbox a command in `workspace` runs in now, or undefined. */
  forLaunch(workspace: string): CommandSandbox | undefined {
    const state = this.state(workspace);
    return state.kind === "on" ? state.sandbox : undefined;
  }

  /**
   * Hidden from commands: the editor's whole user data folder when the storage sits in it
   * (<user data>/User/globalStorage/<extension>), since it also holds the editor's secret storage
   * and every other extension's data; else just Kiln's own storage.
   */
  private kilnData(): string[] {
    if (this.storage.scheme !== "file") return [];
    const own = this.storage.fsPath;
    const user = dirname(dirname(own));
    return basename(dirname(own)) === "globalStorage" && basename(user) === "User" ? [dirname(user)] : [own];
  }

  private warnOnce(reason: string): void {
    if (this.warned.has(reason)) return;
    this.warned.add(reason);
    this.logger.warn(unavailableNote(reason));
    void vscode.window.showWarningMessage(l10n.t("Kiln: {0}", unavailableNote(reason)));
  }
}
