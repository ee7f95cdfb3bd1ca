/**
 * The command sandbox (opt-in): commands run under bubblewrap with the workspace writable, the rest
 * of the machine read-only, the user's secrets and Kiln's own data hidden, and no network unless
 * allowed. Hosts ask `commandSandbox` what the settings give on this machine, wrap each command
 * with what it returns, and tell the approval policy (`sandboxApproval`), which auto-approves more
 * freely only what runs inside.
 */
import { homedir, userInfo } from "node:os";
import { bwrapArgs, shellQuote } from "./bwrap";
import { planMounts, prepareWorkspace, type HostFacts, type SandboxPolicy } from "./mounts";
import { sandboxSupport, type SupportOptions } from "./support";

export { BWRAP_ENV, sandboxSupport, type SandboxSupport } from "./support";
export { SECRET_HOME_PATHS, type SandboxPolicy } from "./mounts";

/** A program and its arguments, for spawn. */
export interface WrappedCommand {
  file: string;
  args: string[];
}

/** What hosts hand their launcher: a way to run one command inside the sandbox. */
export interface CommandSandbox {
  /** `command`, run by `shell -c` inside the sandbox, starting in `cwd`. */
  wrap(command: string, cwd: string, shell?: string): WrappedCommand;
  /** For the model and the terminal: what the command could not reach. */
  readonly description: string;
}

export type SandboxState =
  | { kind: "off" }
  | { kind: "on"; sandbox: CommandSandbox }
  /** Turned on, but this machine cannot run it: commands ask, and run without it if approved. */
  | { kind: "unavailable"; reason: string };

export interface SandboxSettings extends SandboxPolicy {
  enabled: boolean;
}

function hostFacts(env: Record<string, string | undefined>): HostFacts {
  const uid = process.getuid?.();
  let account: string | undefined;
  try {
    account = userInfo().homedir;
  } catch {
    // No passwd entry (some containers): HOME is all there is.
  }
  // HOME may have been pointed elsewhere; the account's own home keeps its secrets all the same.
  const homes = [env.HOME || homedir(), account].filter((h): h is string => Boolean(h));
  return {
    homes: [...new Set(homes)],
    runtimeDir: env.XDG_RUNTIME_DIR || (uid === undefined ? undefined : `/run/user/${uid}`),
    sshAuthSock: env.SSH_AUTH_SOCK,
  };
}

export class BwrapSandbox implements CommandSandbox {
  readonly description: string;

  constructor(
    private readonly bwrap: string,
    private readonly policy: SandboxPolicy,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
    this.description =
      "Sandbox: the command can write only in the workspace (not in .git/hooks, .git/config, .vscode or .kilocode) and a private /tmp; " +
      `the user's credential folders are hidden; ${policy.network ? "the network is on" : "the network is off"}.`;
  }

  wrap(command: string, cwd: string, shell = "/bin/sh"): WrappedCommand {
    prepareWorkspace(this.policy.workspace);
    // Planned per command: a secrets folder made since the last one is hidden too.
    const mounts = planMounts(this.policy, hostFacts(this.env));
    return { file: this.bwrap, args: [...bwrapArgs({ mounts, network: this.policy.network, cwd }), "--", shell, "-c", command] };
  }
}

/** The wrapped command as one line for a POSIX shell, for a terminal that runs lines rather than programs. */
export function commandLine(wrapped: WrappedCommand): string {
  return [wrapped.file, ...wrapped.args].map(shellQuote).join(" ");
}

/** What the settings give on this machine, checked now (the check itself is remembered). */
export function commandSandbox(settings: SandboxSettings, options: SupportOptions = {}): SandboxState {
  if (!settings.enabled) return { kind: "off" };
  const support = sandboxSupport(options);
  if (!support.available) return { kind: "unavailable", reason: support.reason };
  return { kind: "on", sandbox: new BwrapSandbox(support.bwrap, settings, options.env) };
}

/** The one line a host shows once when the sandbox is on and cannot run. */
export function unavailableNote(reason: string): string {
  return `the command sandbox is not available here: ${reason}. Commands ask before they run, and run without it if approved.`;
}

/** The approval policy's part: `sandboxed` loosens what the sandbox contains; `sandboxUnavailable` makes every command ask. */
export function sandboxApproval(state: SandboxState): { sandboxed: boolean; sandboxUnavailable?: string } {
  if (state.kind === "on") return { sandboxed: true };
  if (state.kind === "unavailable") return { sandboxed: false, sandboxUnavailable: `The command sandbox is on but not available here: ${state.reason}. Approving runs this command without it.` };
  return { sandboxed: false };
}
