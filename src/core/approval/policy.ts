import * as l10n from "@vscode/l10n";
import { destructiveReason } from "./commandSafety";
import type { ApprovalCategory, ToolGroup } from "../tools/groups";
import { denyReadings, longestPrefix, prefixLength, redirectTarget, wordsOf, type AnalyzedCommand } from "./commands";
import { riskyOption } from "./shell/options";
import type { SimpleCommand } from "./shell/analyze";
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
  /** The command line of execute_command, read by the shell grammar (`analyzeCommand` and `checkCommandPaths`). */
  command?: AnalyzedCommand;
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
  const decision = decideCall(call, settings, state);
  // The user wanted commands sandboxed and this machine cannot: none runs without them seeing why.
  const unsandboxed = call.command === undefined ? undefined : settings.execute.sandboxUnavailable;
  if (!unsandboxed || decision.kind === "deny") return decision;
  return ask(decision.kind === "ask" && decision.reason ? `${decision.reason} ${unsandboxed}` : unsandboxed);
}

function decideCall(call: PolicyCall, settings: AutoApproveSettings, state: ApprovalState): Decision {
  const command = call.command === undefined ? undefined : judgeCommand(call.command, settings.execute);
  // A refusal is the user's hard rule: it holds with auto-approve off and with the group not approved.
  if (command?.kind === "deny") return command;
  if (call.alwaysAsk) return ask(call.reason);
  if (!settings.enabled) return ask(l10n.t("Auto-approve is turned off."));
  const gate = categoryGate(call, settings);
  if (gate.kind !== "allow") return gate;
  if (command && command.kind !== "allow") return command;
  return limits(settings, state);
}

/** The category switch and the outside-workspace and protected-file gates. */
function categoryGate(call: PolicyCall, settings: AutoApproveSettings): Decision {
  const outside = call.paths.filter((p) => p.outsideWorkspace).map((p) => p.display);
  const outsideReason = (what: Outside) => outsideText(outside, what);
  const protectedReason = () =>
    call.protectedPaths.length === 1
      ? l10n.t("{0} is protected (Kiln's or the editor's configuration).", call.protectedPaths[0]!)
      : l10n.t("{0} are protected (Kiln's or the editor's configuration).", call.protectedPaths.join(", "));
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
      // A file: URL is a read of that file: outside the workspace it needs reads outside approved too.
      if (!settings.browser) return ask();
      return outside.length && !settings.read.outside ? ask(outsideReason("pages")) : ALLOW;
    case "mcp":
      return settings.mcp || call.alwaysAllow ? ALLOW : ask();
    case "always":
      // Tools of this group that ask at all declare a category; one that does not is asked.
      return ask();
  }
}

function limits(settings: AutoApproveSettings, state: ApprovalState): Decision {
  if (settings.maxRequests > 0 && state.autoApprovedRequests >= settings.maxRequests) {
    return ask(l10n.t("Kiln has auto-approved {0} calls in this task, the most allowed ({1}); it asks again from now on.", state.autoApprovedRequests, settings.maxRequests));
  }
  if (settings.maxCost > 0 && state.costSoFar >= settings.maxCost) {
    return ask(l10n.t("This task has cost ${0}, at or past the auto-approve limit of ${1}; Kiln asks again from now on.", state.costSoFar.toFixed(2), settings.maxCost.toFixed(2)));
  }
  return ALLOW;
}

/** What is not auto-approved outside the workspace: each its own sentence, in one and in several. */
type Outside = "deletions" | "reads" | "edits" | "commands" | "pages";

function outsideText(paths: readonly string[], what: Outside): string {
  const one = paths.length === 1;
  const list = paths.join(", ");
  switch (what) {
    case "deletions":
      return one ? l10n.t("{0} is outside the workspace, and deletions there are not auto-approved.", list) : l10n.t("{0} are outside the workspace, and deletions there are not auto-approved.", list);
    case "reads":
      return one ? l10n.t("{0} is outside the workspace, and reads there are not auto-approved.", list) : l10n.t("{0} are outside the workspace, and reads there are not auto-approved.", list);
    case "edits":
      return one ? l10n.t("{0} is outside the workspace, and edits there are not auto-approved.", list) : l10n.t("{0} are outside the workspace, and edits there are not auto-approved.", list);
    case "commands":
      return one ? l10n.t("{0} is outside the workspace, and commands there are not auto-approved.", list) : l10n.t("{0} are outside the workspace, and commands there are not auto-approved.", list);
    case "pages":
      return one
        ? l10n.t("{0} is outside the workspace, and pages opened there are not auto-approved.", list)
        : l10n.t("{0} are outside the workspace, and pages opened there are not auto-approved.", list);
  }
}

type Verdict = { kind: "allowed"; wildcard: boolean } | { kind: "denied"; prefix: string } | { kind: "unlisted" };

/** Longest prefix wins between the lists; on a tie the deny list does. */
function judgeSimple(command: SimpleCommand, execute: AutoApproveSettings["execute"]): Verdict {
  const allowed = longestPrefix([wordsOf(command)], execute.allowed);
  // The deny list also sees past wrappers, folders and case: `sudo rm -rf x`, `FOO=1 /bin/RM -rf x`.
  const denied = longestPrefix(denyReadings(command), execute.denied, true);
  if (denied !== undefined && prefixLength(denied) >= prefixLength(allowed)) return { kind: "denied", prefix: denied };
  if (allowed !== undefined) return { kind: "allowed", wildcard: allowed === "*" };
  return { kind: "unlisted" };
}

/** The command's own verdict; the category switch is judged apart. */
function judgeCommand(command: AnalyzedCommand, execute: AutoApproveSettings["execute"]): Decision {
  const verdicts = command.commands.map((part) => ({ part, verdict: judgeSimple(part, execute) }));
  const denied = verdicts.find((v) => v.verdict.kind === "denied");
  const deniedWhy = denied?.verdict.kind === "denied" ? `\`${denied.part.text}\` matches the denied command prefix "${denied.verdict.prefix}".` : undefined;
  if (deniedWhy && execute.refuseDenied) return { kind: "deny", reason: `${deniedWhy} Denied commands are refused without asking.` };
  if (command.substitution) return ask(l10n.t("The command runs another command inside it ($(…), backticks or <(…)), which is never auto-approved."));
  if (command.unreadable) return ask(l10n.t("The command could not be read safely: {0}.", command.unreadable));
  // With "*" allowed and nothing denied, any command runs as written: a construct Kiln does not
  // judge can hide nothing more. With a deny list it could hide a denied command, so it asks.
  const anything = verdicts.length > 0 && verdicts.every((v) => v.verdict.kind === "allowed" && v.verdict.wildcard) && execute.denied.length === 0;
  if (command.unsafe.length && !anything) return ask(l10n.t("The command could not be read safely: {0}.", command.unsafe[0]!));
  const destructive = destructiveReason(command.text);
  if (destructive) return ask(l10n.t("This command is potentially destructive: {0}.", destructive));
  if (deniedWhy) return ask(deniedWhy);
  if (verdicts.length === 0) return ask();
  const unlisted = verdicts.find((v) => v.verdict.kind === "unlisted");
  if (unlisted) return ask(l10n.t("`{0}` is not on the allowed command list.", unlisted.part.text));
  // In the sandbox a command writes only in the workspace and cannot see the user's secrets, so what
  // it writes, runs or reaches is contained: only a path that may be hidden from Kiln still asks.
  const contained = execute.sandboxed === true;
  for (const { part, verdict } of verdicts) {
    // "*" allows any command as written; a prefix allows a tool to look, within the workspace.
    if (verdict.kind !== "allowed" || verdict.wildcard) continue;
    const target = contained ? undefined : redirectTarget(part);
    if (target) return ask(l10n.t("`{0}` writes to {1} by redirection, which the allowed prefix does not cover.", part.text, target));
    const [name, ...args] = part.words.map((w) => w.value ?? w.raw);
    const risky = contained || name === undefined ? undefined : riskyOption(name, args);
    if (risky) return ask(l10n.t("`{0}` uses `{1}`, an option that can write files, run code or reach outside the workspace, which the allowed prefix does not cover.", part.text, risky));
    if (part.pathProblem && (!contained || part.pathMayBeHidden)) return ask(l10n.t("`{0}` reaches beyond what the allowed prefix covers: {1}.", part.text, part.pathProblem));
    if (!part.words.every((w) => w.value !== undefined)) return ask(l10n.t("`{0}` has words whose value Kiln cannot know before it runs.", part.text));
  }
  return ALLOW;
}
