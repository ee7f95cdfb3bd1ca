/**
 * Small builders for the approval policy tests: tool calls as the pipeline hands them to `decide`,
 * and settings from the same category words the hosts use.
 */
import { decide, type Decision, type PolicyCall } from "../../../src/core/approval/policy";
import { readCommand, type PathJudge } from "../../../src/core/approval/shell";
import { settingsFromWords, type ApprovalState, type ApproveWord, type AutoApproveSettings } from "../../../src/core/approval/settings";

export type Path = PolicyCall["paths"][number];

export const FRESH: ApprovalState = { autoApprovedRequests: 0, costSoFar: 0 };

/** A path in the workspace (/ws), shown relative to it. */
export const inside = (display: string): Path => ({ absolute: `/ws/${display}`, display, outsideWorkspace: false });
/** A path outside the workspace, shown as its absolute path. */
export const outside = (absolute: string): Path => ({ absolute, display: absolute, outsideWorkspace: true });

export const readCall = (...paths: Path[]): PolicyCall => ({ tool: "read_file", group: "read", paths, protectedPaths: [] });

/** An edit; paths displayed in `protectedPaths` are also passed as protected. */
export const editCall = (paths: Path[], protectedPaths: string[] = []): PolicyCall => ({ tool: "write_to_file", group: "edit", paths, protectedPaths });

/** delete_file: an edit-group tool with a category of its own. */
export const deleteCall = (paths: Path[], protectedPaths: string[] = []): PolicyCall => ({ tool: "delete_file", group: "edit", category: "delete", paths, protectedPaths });

/** Paths under /ws are inside the workspace; no links here, so no disk is looked at. */
const judgeByPrefix: PathJudge = async (absolute, written) => (absolute === "/ws" || absolute.startsWith("/ws/") ? undefined : `\`${written}\` is outside the workspace`);

/** execute_command run in `cwd` (the workspace root unless given), read by the shell grammar as the pipeline reads it. */
export const commandCall = async (command: string, cwd: Path = inside("."), judge: PathJudge = judgeByPrefix): Promise<PolicyCall> => ({
  tool: "execute_command",
  group: "command",
  paths: [cwd],
  protectedPaths: [],
  command: await readCommand(command, cwd.absolute, judge),
});

export const browserCall = (): PolicyCall => ({ tool: "browser_action", group: "browser", paths: [], protectedPaths: [] });

export const mcpCall = (alwaysAllow = false): PolicyCall => ({ tool: "use_mcp_tool", group: "mcp", paths: [], protectedPaths: [], ...(alwaysAllow ? { alwaysAllow } : {}) });

export const taskToolCall = (tool: string, category: "mode" | "subtask" | "todo"): PolicyCall => ({ tool, group: "always", category, paths: [], protectedPaths: [] });

type Rest = Parameters<typeof settingsFromWords>[1];

/** Settings with these categories on; commands default to "*" allowed and nothing denied. */
export const approving = (words: ApproveWord[], rest: Rest = {}): AutoApproveSettings => settingsFromWords(words, rest);

/** Only commands approved, with these lists. */
export const commands = (allowed: readonly string[], denied: readonly string[] = [], rest: Rest = {}): AutoApproveSettings => settingsFromWords(["command"], { allowed, denied, ...rest });

export const decideFresh = (call: PolicyCall, settings: AutoApproveSettings): Decision => decide(call, settings, FRESH);

/** The decision's reason; undefined for allow. */
export const reasonOf = (decision: Decision): string | undefined => (decision.kind === "allow" ? undefined : decision.reason);
