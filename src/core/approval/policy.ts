import { destructiveReason } from "../tools/commandSafety";
import type { ApprovalCategory, ToolGroup } from "../tools/defineTool";
import { longestPrefix, prefixLength, redirectTarget, splitCommand, unwrapped, wrappedTails, type CommandPart } from "./commands";
import type { ApprovalState, AutoApproveSettings } from "./settings";

/** A tool call as the policy sees it: what it is and what it touches, already resolved. */
export interface PolicyCall {
  tool: string;
  group: ToolGroup;
  /** A category approved on its own terms (delete, mode, subtask, todo), apart from the group. */
  category?: ApprovalCategory;
  /** Paths the call touches; a file Kiln saved for the model counts as inside. */
  paths: readonly { absolute: string; display: string; outsideWorkspace: boolean }[];
  /** Protected paths among them (Kiln's and the editor's configuration), as displayed. */
  protectedPaths: readonly string[];
  /** The command line of execute_command. */
  command?: string;
  /** The tool insists on asking (it found something the policy may not know of). */
  alwaysAsk?: boolean;
  /** The tool's reason for insisting. */
  reason?: string;
  /** An MCP tool the user allowed one by one (`alwaysAllow` in mcp.json). */
  alwaysAllow?: boolean;
}

export type Decision = { kind: "allow" } | { kind: "ask"; reason?: string } | { kind: "deny"; reason: string };

const ALLOW: Decision = { kind: "allow" };
const ask = (reason?: string): Decision => (reason ? { kind: "ask", reason } : { kind: "ask" });

/**
 * Whether the call runs without asking, asks the user, or is refused. Pure: the same call, settings
 * and state always give the same answer, so each case can be tested on its own.
 */
export function decide(call: PolicyCall, settings: AutoApproveSettings, state: ApprovalState): Decision {
  const command = call.command === undefined ? undefined : judgeCommand(call.command, settings.execute);
  // A refusal is the user's hard rule: it holds with auto-approve off and with the group not approved.
  if (command?.kind === "deny") return command;
  if (call.alwaysAsk) return ask(call.reason);
  if (!settings.enabled) return ask("Auto-approve is turned off.");
  const gate = categoryGate(call, settings);
  if (gate.kind !== "allow") return gate;
  if (command && command.kind !== "allow") return command;
  return limits(settings, state);
}

/** The category switch and the outside-workspace and protected-file gates. */
function categoryGate(call: PolicyCall, settings: AutoApproveSettings): Decision {
  const outside = call.paths.filter((p) => p.outsideWorkspace).map((p) => p.display);
  const outsideReason = (what: string) => `${outside.join(", ")} ${outside.length === 1 ? "is" : "are"} outside the workspace, and ${what} there are not auto-approved.`;
  const protectedReason = () => `${call.protectedPaths.join(", ")} ${call.protectedPaths.length === 1 ? "is" : "are"} protected (Kiln's or the editor's configuration).`;
  switch (call.category) {
    case "delete":
      if (!settings.delete) return ask();
      if (outside.length && !settings.write.outside) return ask(outsideReason("deletions"));
      return call.protectedPaths.length && !settings.write.protected ? ask(protectedReason()) : ALLOW;
    case "mode":
      return settings.mode ? ALLOW : ask();
    case "subtask":
      return settings.subtask ? ALLOW : ask();
    case "todo":
      return settings.todo ? ALLOW : ask();
    case undefined:
      break;
  }
  switch (call.group) {
    case "read":
      // Reading Kiln's own configuration changes nothing, so protected paths do not matter here.
      if (!settings.read.enabled) return ask();
      return outside.length && !settings.read.outside ? ask(outsideReason("reads")) : ALLOW;
    case "edit":
      if (!settings.write.enabled) return ask();
      if (outside.length && !settings.write.outside) return ask(outsideReason("edits"));
      return call.protectedPaths.length && !settings.write.protected ? ask(protectedReason()) : ALLOW;
    case "command":
      if (!settings.execute.enabled) return ask();
      // A command's folder outside the workspace has no switch of its own: it always asks.
      return outside.length ? ask(outsideReason("commands")) : ALLOW;
    case "browser":
      return settings.browser ? ALLOW : ask();
    case "mcp":
      return settings.mcp || call.alwaysAllow ? ALLOW : ask();
    case "always":
      // Tools of this group that ask at all declare a category; one that does not is asked.
      return ask();
  }
}

function limits(settings: AutoApproveSettings, state: ApprovalState): Decision {
  if (settings.maxRequests > 0 && state.autoApprovedRequests >= settings.maxRequests) {
    return ask(`Kiln has auto-approved ${state.autoApprovedRequests} calls in this task, the most allowed (${settings.maxRequests}); it asks again from now on.`);
  }
  if (settings.maxCost > 0 && state.costSoFar >= settings.maxCost) {
    return ask(`This task has cost $${state.costSoFar.toFixed(2)}, at or past the auto-approve limit of $${settings.maxCost.toFixed(2)}; Kiln asks again from now on.`);
  }
  return ALLOW;
}

type PartVerdict = { kind: "allowed"; wildcard: boolean } | { kind: "denied"; prefix: string } | { kind: "unlisted" };

/** Longest prefix wins between the lists; on a tie the deny list does. */
function judgePart(part: CommandPart, execute: AutoApproveSettings["execute"]): PartVerdict {
  const allowed = longestPrefix(part.text, execute.allowed);
  // The deny list also sees past wrappers: `sudo rm -rf x` and `FOO=1 rm -rf x` are `rm -rf x`.
  let denied: string | undefined;
  for (const text of [part.text, unwrapped(part), ...wrappedTails(part)]) {
    const match = longestPrefix(text, execute.denied);
    if (prefixLength(match) > prefixLength(denied)) denied = match;
  }
  if (denied !== undefined && prefixLength(denied) >= prefixLength(allowed)) return { kind: "denied", prefix: denied };
  if (allowed !== undefined) return { kind: "allowed", wildcard: allowed === "*" };
  return { kind: "unlisted" };
}

/** The command's own verdict; the category switch is judged apart. */
function judgeCommand(command: string, execute: AutoApproveSettings["execute"]): Decision {
  const split = splitCommand(command);
  const verdicts = split.parts.map((part) => ({ part, verdict: judgePart(part, execute) }));
  const denied = verdicts.find((v) => v.verdict.kind === "denied");
  const deniedWhy = denied?.verdict.kind === "denied" ? `\`${denied.part.text}\` matches the denied command prefix "${denied.verdict.prefix}".` : undefined;
  if (deniedWhy && execute.refuseDenied) return { kind: "deny", reason: `${deniedWhy} Denied commands are refused without asking.` };
  if (split.error) return ask(`The command could not be read safely: ${split.error}.`);
  if (split.substitution) return ask("The command runs another command inside it ($(…), backticks or <(…)), which is never auto-approved.");
  const destructive = destructiveReason(command);
  if (destructive) return ask(`This command is potentially destructive: ${destructive}.`);
  if (deniedWhy) return ask(deniedWhy);
  if (split.parts.length === 0) return ask();
  const unlisted = verdicts.find((v) => v.verdict.kind === "unlisted");
  if (unlisted) return ask(`\`${unlisted.part.text}\` is not on the allowed command list.`);
  for (const { part, verdict } of verdicts) {
    // An allowed read-only command ("cat", "echo") writes files through a redirection; "*" allows that too.
    const target = verdict.kind === "allowed" && !verdict.wildcard ? redirectTarget(part) : undefined;
    if (target) return ask(`\`${part.text}\` writes to ${target} by redirection, which the allowed prefix does not cover.`);
  }
  return ALLOW;
}
