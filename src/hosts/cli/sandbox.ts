import { resolve } from "node:path";
import type { AutoApproveSettings } from "../../core/approval/settings";
import { commandSandbox, sandboxApproval, unavailableNote, type CommandSandbox } from "../../core/sandbox";
import type { CliArgs } from "./args";

export interface CliSandbox {
  /** The flags' auto-approve settings with the sandbox's say added (see sandboxApproval). */
  autoApprove: AutoApproveSettings;
  /** For the terminal: the sandbox each command runs in; undefined when commands run as they are. */
  launch(): CommandSandbox | undefined;
}

/**
 * --sandbox, checked on this machine once at the start of the run. Where it cannot run, `report`
 * says why once, and every command asks (which, without a terminal, means it does not run).
 */
export function cliSandbox(args: CliArgs, workspace: string, report: (line: string) => void): CliSandbox {
  // Kiln's own files wherever the flags put them; under ~/.kilocode they are hidden anyway.
  const hide = [args.historyDir, args.checkpointDir, args.mcpConfig].filter((p): p is string => p !== undefined).map((p) => resolve(p));
  const state = commandSandbox({ enabled: args.sandbox !== undefined, network: args.sandbox?.network ?? false, workspace, hide });
  if (state.kind === "unavailable") report(unavailableNote(state.reason));
  const sandbox = state.kind === "on" ? state.sandbox : undefined;
  return {
    autoApprove: { ...args.autoApprove, execute: { ...args.autoApprove.execute, ...sandboxApproval(state) } },
    launch: () => sandbox,
  };
}
