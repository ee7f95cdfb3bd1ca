import * as l10n from "@vscode/l10n";
import type { ApprovalDecision, ApprovalDetails, Approvals } from "../ports/approvals";
import { checkMode, toolsForMode, type Mode } from "../modes/modes";
import { refusalText } from "../modes/modeText";
import type { ToolUseBlock } from "../toolcall/types";
import { errorText, type AnyTool, type ApprovalInfo, type CardControls, type ImageData, type ToolContext, type ToolErrorReason, type ToolOutcome } from "../tools/defineTool";
import type { ApprovalCategory, ToolGroup } from "../tools/groups";
import { TOOL_RESULT_MAX_CHARS } from "../../shared/limits";
import { redactToolResult } from "../llm/redact";
import { closeCutBlocks } from "../prompts/untrusted";
import { hasUsableServers } from "../prompts/mcpSection";
import { coerceArgs } from "../tools/params";
import { resolvePath, resolveRealPath, type ResolvedPath } from "../tools/paths";
import { ignoreRulesOf, type IgnoreRules } from "../workspace/ignore";
import type { ToolRegistry } from "../tools/registry";
import { decide, type Decision, type PolicyCall } from "../approval/policy";
import type { AnalyzedCommand } from "../approval/commands";
import { readCommand } from "../approval/shell";
import { settingsFromGroups, type ApprovalState, type AutoApproveSettings } from "../approval/settings";

/** The group shape of auto-approval, still accepted (tests, simple callers) and read as settings. */
export interface AutoApprovePolicy {
  /** Groups that run without asking. */
  groups: ReadonlySet<ToolGroup>;
  /** Whether those also run without asking when they touch paths outside the workspace. */
  outsideWorkspace: boolean;
  /** Categories that need their own yes (deleting files): without it they ask, whatever the group says. */
  categories?: ReadonlySet<ApprovalCategory>;
}

/** Either shape; the full settings add command lists, limits and the global switch. */
export type AutoApproveInput = AutoApprovePolicy | AutoApproveSettings;

export const ASK_EVERYTHING: AutoApprovePolicy = { groups: new Set(), outsideWorkspace: false };

export function toSettings(input: AutoApproveInput): AutoApproveSettings {
  return "groups" in input ? settingsFromGroups(input.groups, input.outsideWorkspace, input.categories) : input;
}

/**
 * The task's count of auto-approved calls (the pipeline adds to it) and what the task has cost,
 * for the limits after which auto-approval stops. A subtask shares its parent's.
 */
export interface ApprovalTally {
  autoApproved: number;
  costSoFar(): number;
}

export interface PipelineDeps {
  registry: ToolRegistry;
  mode: Mode;
  /** All modes, to tell the model which one may do what this one may not. */
  modes?: readonly Mode[];
  approvals: Approvals;
  autoApprove: AutoApproveInput;
  /** Without it there is nothing to count against, and the limits never apply. */
  approvalTally?: ApprovalTally;
  /** A call under another name for a registered tool (a native MCP function for use_mcp_tool). */
  translate?(block: ToolUseBlock): ToolUseBlock;
  context: ToolContext;
  /** Results longer than this are cut (kiln.context.toolResultMaxChars); the full text is kept with saveOverflow. */
  maxResultChars?: number;
  saveOverflow?(toolName: string, text: string): Promise<string>;
  /** Files Kiln saved for the model (results cut for length): reading them back needs no approval. */
  ownFiles?: Set<string>;
  /** Told when the call waits for the user's approval and when it runs, so its card can say so. */
  onPhase?(phase: "waiting" | "running"): void;
  /** Told what a running call reports of its progress, for its card; throttled by the caller. */
  onProgress?(text: string): void;
  /** Told what a running call prints, for its card. */
  onOutput?(chunk: string): void;
  /** Gives a running call its card's Continue and Stop buttons. */
  cardControls?(): CardControls;
  /** Told the waiting call's diff anew (the user changed the proposal while deciding), for its card. */
  onApprovalRevised?(diff: string): void;
  /**
   * kiln.redactSecrets (the CLI's --no-redact turns it off): whether results also lose credentials
   * of a known shape and secret-named environment values; the API keys go in any case. Default on.
   */
  redactSecrets?: boolean;
  /**
   * Called when an edit-group call is approved, before it writes (the task's checkpoint). It must
   * not throw: a checkpoint that cannot be taken never holds the edit up.
   */
  beforeEdit?(tool: string, paths: readonly string[]): Promise<void>;
}

export type ToolCallResult =
  | { status: "done"; outcome: Exclude<ToolOutcome, { kind: "denied" | "error" }>; forModel: string; images?: ImageData[] }
  /** The user said no. */
  | { status: "denied"; forModel: string; feedback?: string }
  /** Kiln's rules refused the call without asking anyone (a command on the deny list): no failure, and the chat shows it denied. */
  | { status: "refused"; forModel: string; reason: string }
  /**
   * The call failed (the tool's error outcome, or the pipeline's own checks): it counts toward the
   * errors-in-a-row stop. `forUser`: a short reason for the chat where the model's text is long.
   */
  | { status: "error"; reason: ToolErrorReason; forModel: string; forUser?: string };

function denied(toolName: string, feedback: string | undefined): ToolCallResult {
  const said = feedback?.trim();
  return {
    status: "denied",
    feedback: said,
    forModel: said ? `The user denied ${toolName} and said:\n<feedback>\n${said}\n</feedback>` : `The user denied ${toolName}. Do not repeat it; ask or try another way.`,
  };
}

/**
 * Kiln's own configuration and the editor's, and the files that decide what tools and allowed
 * commands run (git hooks and config, npm scripts and registries, make targets, direnv): a change
 * there always asks, whatever is auto-approved. Case-insensitive: on macOS and Windows
 * `.KILOCODE/mcp.json` is `.kilocode/mcp.json`.
 */
const PROTECTED = [
  /^\.kilocode(\/|$)/i,
  /^\.kilocodemodes$/i,
  /^\.kilocodeignore$/i,
  // Roo's, Cline's and the older rule and mode files Kiln reads in place (loadRules.ts, customModes.ts).
  /^\.roo(\/|$)/i,
  // Kilo Code v7's folder: its agent files (.kilo/agents/*.md) are read in place as modes.
  /^\.kilo(\/|$)/i,
  // Claude Code's folder: its skills are read in place, and its settings run hooks.
  /^\.claude(\/|$)/i,
  /^\.roomodes$/i,
  /^\.(clinerules|roorules|kilocoderules)(-[^/]*)?(\/|$)/i,
  /^\.vscode(\/|$)/i,
  /(^|\/)AGENTS\.md$/i,
  /\.code-workspace$/i,
  /(^|\/)\.git(\/|$)/i,
  /(^|\/)\.husky(\/|$)/i,
  /(^|\/)package\.json$/i,
  /(^|\/)\.npmrc$/i,
  /(^|\/)\.yarnrc(\.yml)?$/i,
  /(^|\/)(gnu)?makefile$/i,
  /(^|\/)\.envrc$/i,
];

/** Protected as given or where its links lead: `cfg_link/mcp.json` with `cfg_link -> .kilocode` is. */
function isProtected(path: ResolvedPath): boolean {
  if (path.outsideWorkspace) return false;
  return [path.display, path.real?.display].some((shown) => shown !== undefined && PROTECTED.some((pattern) => pattern.test(shown)));
}

function fail(reason: ToolErrorReason, message: string, forUser?: string): ToolCallResult {
  return { status: "error", reason, forModel: errorText(message), ...(forUser && { forUser }) };
}

/**
 * Whether the call is a read that runs without asking: such calls in one turn may run side by side,
 * since they change nothing and no prompt has to wait for the user.
 */
export function isUnattendedRead(block: ToolUseBlock, deps: PipelineDeps): boolean {
  const tool = deps.registry.get(block.name);
  if (!tool || tool.group !== "read" || block.error || block.partial) return false;
  const coerced = coerceArgs(tool.params, block.params);
  if (!coerced.ok) return false;
  const approval = tool.approval?.(coerced.args);
  const paths = (approval?.paths ?? []).map((path) => resolvePath(deps.context.cwd, path));
  return decide(policyCall(tool, approval, paths, deps), toSettings(deps.autoApprove), stateOf(deps)).kind === "allow";
}

/** The policy's view of a call: resolved paths, protected ones, and the command of a command tool. */
function policyCall(tool: AnyTool, approval: ApprovalInfo | undefined, paths: readonly ResolvedPath[], deps: PipelineDeps, details: ApprovalDetails = {}, command?: AnalyzedCommand): PolicyCall {
  // The browser reaches the machine's own services and the LAN only when the user says so, each time or in settings.
  const privateHost =
    approval?.privateHost && !deps.context.allowPrivateUrls
      ? `${approval.privateHost} is a loopback or private address; opening it is not auto-approved (kiln.mentions.allowPrivateUrls allows it).`
      : undefined;
  return {
    tool: tool.name,
    group: tool.group,
    ...(approval?.category ? { category: approval.category } : {}),
    paths: paths.map((p) => ({ ...p, outsideWorkspace: isOutside(p, tool.group, deps) })),
    // Reading Kiln's configuration changes nothing: protection guards what changes files.
    protectedPaths: tool.group === "read" ? [] : paths.filter((p) => isProtected(p)).map((p) => p.display),
    ...(command && { command }),
    ...(details.alwaysAsk || privateHost ? { alwaysAsk: true } : {}),
    ...(details.reason || privateHost ? { reason: details.reason ?? privateHost } : {}),
    ...(approval?.mcpTool && mcpAlwaysAllowed(approval.mcpTool, deps) ? { alwaysAllow: true } : {}),
  };
}

/** The command line read by the shell grammar, each path it names checked as the file tools check theirs. */
function commandOf(text: string, deps: PipelineDeps): Promise<AnalyzedCommand> {
  const cwd = deps.context.cwd;
  const rules = ignoreRulesOf(deps.context);
  return readCommand(text, cwd, async (absolute, written) => {
    const resolved = await resolveRealPath(cwd, absolute);
    if (resolved.outsideWorkspace) return `\`${written}\` is outside the workspace`;
    if (isHidden(resolved, rules)) return { problem: `\`${written}\` is hidden from Kiln by .kilocodeignore`, hidden: true };
    return undefined;
  });
}

function mcpAlwaysAllowed(call: { server: string; tool: string }, deps: PipelineDeps): boolean {
  const server = deps.context.mcp?.servers().find((s) => s.name === call.server);
  return server?.tools.find((t) => t.name === call.tool)?.alwaysAllow === true;
}

function stateOf(deps: PipelineDeps): ApprovalState {
  return { autoApprovedRequests: deps.approvalTally?.autoApproved ?? 0, costSoFar: deps.approvalTally?.costSoFar() ?? 0 };
}

/** The policy's refusal: no one was asked, so the model hears the rule, not a user's no. */
function refused(toolName: string, reason: string): ToolCallResult {
  return { status: "refused", reason, forModel: `Kiln refused ${toolName} without asking the user: ${reason} Do not try it again in another form; find another way, or ask the user to run it.` };
}

function isOutside(path: ResolvedPath, group: ToolGroup, deps: PipelineDeps): boolean {
  return path.outsideWorkspace && !(group === "read" && deps.ownFiles?.has(path.absolute));
}

/** Hidden by .kilocodeignore as given or where its links lead (rules a host gave may not follow links). */
function isHidden(path: ResolvedPath, rules: IgnoreRules): boolean {
  if (path.outsideWorkspace) return false;
  return rules.isHiddenFromAgent(path.absolute) || (path.real !== undefined && path.real.absolute !== path.absolute && rules.isHiddenFromAgent(path.real.absolute));
}

/**
 * A reviewed tool reads its file to work out the change before it asks, and its answer (a block
 * that does not apply, a count of matches, a line count, a missing file) tells the model about the
 * file. Outside the workspace that reading needs its own yes, unless the policy would allow the call
 * anyway: refused, the tool never runs and the model learns nothing of the path.
 */
async function askBeforeReading(block: ToolUseBlock, tool: AnyTool, approval: ApprovalInfo, paths: readonly ResolvedPath[], deps: PipelineDeps): Promise<ToolCallResult | undefined> {
  const call = policyCall(tool, approval, paths, deps);
  const outside = call.paths.filter((p) => p.outsideWorkspace).map((p) => p.display);
  if (outside.length === 0) return undefined;
  const verdict = decide(call, toSettings(deps.autoApprove), stateOf(deps));
  if (verdict.kind === "allow") return undefined;
  if (verdict.kind === "deny") return refused(tool.name, verdict.reason);
  const decision = await askUser(block, tool, approval, paths, call, deps, {
    reason:
      outside.length === 1
        ? l10n.t("{0} is outside the workspace; Kiln has to read it to prepare the change.", outside[0]!)
        : l10n.t("{0} are outside the workspace; Kiln has to read them to prepare the change.", outside.join(", ")),
  });
  if (!decision.approved) return denied(tool.name, decision.feedback);
  // The user may have taken a while: the tool reads next, so what the paths lead to is checked again.
  const moved = await movedSinceCheck(paths, deps);
  return moved ? fail("conflict", moved) : undefined;
}

/** Puts the call to the user (the card in VS Code, the terminal in the CLI), its phase shown while it waits. */
async function askUser(
  block: ToolUseBlock,
  tool: AnyTool,
  approval: ApprovalInfo,
  paths: readonly ResolvedPath[],
  call: PolicyCall,
  deps: PipelineDeps,
  details: ApprovalDetails,
): Promise<ApprovalDecision> {
  deps.onPhase?.("waiting");
  const decision = await deps.approvals.request({
    tool: tool.name,
    group: tool.group,
    summary: approval.summary,
    params: block.params,
    paths: paths.map((p) => p.absolute),
    outsideWorkspace: call.paths.some((p) => p.outsideWorkspace),
    protectedPaths: [...call.protectedPaths],
    ...(approval.category ? { category: approval.category } : {}),
    ...details,
  });
  if (decision.approved) deps.onPhase?.("running");
  return decision;
}

/** Why the call may no longer go ahead when a path leads somewhere else than when it was checked; undefined when none does. */
async function movedSinceCheck(paths: readonly ResolvedPath[], deps: PipelineDeps): Promise<string | undefined> {
  const rules = ignoreRulesOf(deps.context);
  for (const checked of paths) {
    const now = await resolveRealPath(deps.context.cwd, checked.absolute);
    if (now.outsideWorkspace === checked.outsideWorkspace && now.real?.absolute === checked.real?.absolute) continue;
    const where = now.outsideWorkspace
      ? `${now.real?.absolute ?? now.absolute}, outside the workspace`
      : isHidden(now, rules)
        ? `${now.real?.display ?? now.display}, hidden from Kiln by .kilocodeignore`
        : isProtected(now)
          ? `${now.real?.display ?? now.display}, a protected file`
          : (now.real?.display ?? now.display);
    return `${checked.display} changed after Kiln checked it: it now leads to ${where} (a link was made or changed). Nothing was read or changed; check the path with list_files and ask the user if it should be used.`;
  }
  return undefined;
}

/** validate -> mode check -> approval -> execute -> result for the model. The same for every tool. */
export async function runToolCall(block: ToolUseBlock, deps: PipelineDeps): Promise<ToolCallResult> {
  if (block.error) return fail("invalid_args", block.error);
  if (block.partial) return fail("invalid_args", `the call to ${block.name} was cut off before it was complete, so it was not run. Send it again in full.`);
  block = deps.translate?.(block) ?? block;
  const tool = deps.registry.get(block.name);
  // The tools the refusals name; the MCP ones only while a server can take them, as in the prompt.
  const mcpUsable = hasUsableServers(deps.context.mcp?.servers());
  const available = toolsForMode(deps.mode, deps.registry.list())
    .filter((t) => t.group !== "mcp" || mcpUsable)
    .map((t) => t.name);
  if (!tool) return fail("not_found", `there is no tool named "${block.name}". Available tools: ${available.join(", ")}.`);
  const coerced = coerceArgs(tool.params, block.params);
  if (!coerced.ok) return fail("invalid_args", `${block.name} was called with invalid parameters:\n- ${coerced.errors.join("\n- ")}`);
  const approval = tool.approval?.(coerced.args);
  const paths = await Promise.all((approval?.paths ?? []).map((path) => resolveRealPath(deps.context.cwd, path)));
  // A mode's file pattern holds for where a link leads too: `plan.md -> src/app.ts` is no Markdown file.
  const modePaths = paths.flatMap((p) => (p.real && !p.outsideWorkspace && p.real.display !== p.display ? [p.display, p.real.display] : [p.display]));
  const mode = checkMode(deps.mode, tool.group, tool.name, modePaths);
  if (!mode.ok) {
    const able = (deps.modes ?? []).filter((m) => checkMode(m, tool.group, tool.name, modePaths).ok).map((m) => m.slug);
    const elsewhere = able.length ? ` Modes that may: ${able.join(", ")} (switch_mode, or new_task for a subtask).` : "";
    const human = refusalText(deps.mode, mode.refusal, able);
    return fail("mode", `${mode.reason}${elsewhere} Tools available in this mode: ${available.join(", ")}.`, human);
  }

  const rules = ignoreRulesOf(deps.context);
  const hidden = paths.filter((p) => isHidden(p, rules));
  if (hidden.length > 0) {
    return fail(
      "ignored",
      `${hidden.map((p) => p.display).join(", ")} ${hidden.length === 1 ? "is" : "are"} hidden from Kiln by .kilocodeignore; leave ${hidden.length === 1 ? "it" : "them"} alone or ask the user.`,
    );
  }
  if (approval?.reviewed) {
    const early = await askBeforeReading(block, tool, approval, paths, deps);
    if (early) return early;
  }
  const asked = new Map<string, Promise<ApprovalDecision>>();
  let refusal: string | undefined;
  let moved: string | undefined;
  let tallied = false;
  let checkpointed = false;
  // One decision per call, however often the tool asks (an edit asks when its diff is ready), or one
  // per part where the tool says (each file of a rename); the call counts and checkpoints once.
  const approve = (details: ApprovalDetails = {}): Promise<ApprovalDecision> => {
    const part = details.part ?? "";
    const known = asked.get(part);
    if (known) return known;
    const decided = (async () => {
      if (!approval) return { approved: true } as const;
      const command = tool.group === "command" && typeof coerced.args.command === "string" ? await commandOf(coerced.args.command, deps) : undefined;
      const call = policyCall(tool, approval, paths, deps, details, command);
      const verdict: Decision = decide(call, toSettings(deps.autoApprove), stateOf(deps));
      if (verdict.kind === "allow") {
        if (deps.approvalTally && !tallied) deps.approvalTally.autoApproved++;
        tallied = true;
        return { approved: true } as const;
      }
      if (verdict.kind === "deny") {
        refusal = verdict.reason;
        return { approved: false, feedback: verdict.reason } as const;
      }
      return askUser(block, tool, approval, paths, call, deps, { ...(verdict.reason ? { reason: verdict.reason } : {}), ...details });
    })().then(async (decision) => {
      if (!decision.approved) return decision;
      // The last moment before the tool reads or writes: a link swapped since the check (while the
      // user looked at the diff, say) must not carry the call somewhere else.
      moved = await movedSinceCheck(paths, deps);
      if (moved) return { approved: false } as const;
      // After the yes and before the write: a rejected edit takes no checkpoint.
      if (tool.group === "edit" && !checkpointed) {
        checkpointed = true;
        await deps.beforeEdit?.(
          tool.name,
          paths.map((p) => p.display),
        );
      }
      return decision;
    });
    asked.set(part, decided);
    return decided;
  };
  if (!approval?.reviewed) {
    const decision = await approve();
    if (moved) return fail("conflict", moved);
    if (refusal) return refused(tool.name, refusal);
    if (!decision.approved) return denied(tool.name, decision.feedback);
  }

  let outcome: ToolOutcome;
  try {
    const live = {
      ...(deps.onProgress && { progress: deps.onProgress }),
      ...(deps.onOutput && { output: deps.onOutput }),
      ...(deps.cardControls && { cardControls: deps.cardControls }),
      ...(deps.onApprovalRevised && { reviseApproval: deps.onApprovalRevised }),
    };
    outcome = await tool.execute(coerced.args, { ...deps.context, approve, ...live });
  } catch (err) {
    return fail("failed", `${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (outcome.kind === "denied") return moved ? fail("conflict", moved) : refusal ? refused(tool.name, refusal) : denied(tool.name, outcome.feedback);
  if (outcome.kind === "question" || outcome.kind === "completion") return { status: "done", outcome, forModel: "" };
  // Before the cut: the full text saved for the model to page through is redacted too. An error's
  // message may quote what the tool met (an MCP server's answer, a command's complaint).
  const redacted = (text: string) => cap(tool.name, redactToolResult(text, deps.redactSecrets !== false), deps);
  if (outcome.kind === "error") return { status: "error", reason: outcome.reason, forModel: await redacted(errorText(outcome.message)) };
  return { status: "done", outcome, forModel: await redacted(outcome.text), images: outcome.images };
}

async function cap(toolName: string, text: string, deps: PipelineDeps): Promise<string> {
  const max = deps.maxResultChars ?? TOOL_RESULT_MAX_CHARS.default;
  if (text.length <= max) return text;
  const where = deps.saveOverflow ? await deps.saveOverflow(toolName, text) : undefined;
  if (where) deps.ownFiles?.add(resolvePath(deps.context.cwd, where).absolute);
  const rest = where ? ` The full result is saved at ${where}; read it with read_file and start_line.` : "";
  return `${closeCutBlocks(text.slice(0, max))}\n[Result cut at ${max} of ${text.length} characters.${rest}]`;
}
