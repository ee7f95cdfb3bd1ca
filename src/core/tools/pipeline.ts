import type { Approvals } from "../ports/approvals";
import { checkMode, toolsForMode, type Mode } from "../modes/modes";
import type { ToolUseBlock } from "../toolcall/types";
import type { ToolContext, ToolGroup, ToolOutcome } from "./defineTool";
import { coerceArgs } from "./params";
import { resolvePath } from "./paths";
import type { ToolRegistry } from "./registry";

export interface AutoApprovePolicy {
  /** Groups that run without asking. */
  groups: ReadonlySet<ToolGroup>;
  /** Whether those also run without asking when they touch paths outside the workspace. */
  outsideWorkspace: boolean;
}

export const ASK_EVERYTHING: AutoApprovePolicy = { groups: new Set(), outsideWorkspace: false };

export interface PipelineDeps {
  registry: ToolRegistry;
  mode: Mode;
  approvals: Approvals;
  autoApprove: AutoApprovePolicy;
  context: ToolContext;
  /** Results longer than this are cut; the full text is kept with saveOverflow. */
  maxResultChars?: number;
  saveOverflow?(toolName: string, text: string): Promise<string>;
}

export type ToolCallResult =
  | { status: "done"; outcome: ToolOutcome; forModel: string }
  | { status: "denied"; forModel: string; feedback?: string }
  | { status: "error"; forModel: string };

const DEFAULT_MAX_RESULT = 50_000;

function fail(message: string): ToolCallResult {
  return { status: "error", forModel: `Error: ${message}` };
}

/** validate -> mode check -> approval -> execute -> result for the model. The same for every tool. */
export async function runToolCall(block: ToolUseBlock, deps: PipelineDeps): Promise<ToolCallResult> {
  if (block.error) return fail(block.error);
  if (block.partial) return fail(`the call to ${block.name} was cut off before it was complete, so it was not run. Send it again in full.`);
  const tool = deps.registry.get(block.name);
  const available = toolsForMode(deps.mode, deps.registry.list()).map((t) => t.name);
  if (!tool) return fail(`there is no tool named "${block.name}". Available tools: ${available.join(", ")}.`);
  const coerced = coerceArgs(tool.params, block.params);
  if (!coerced.ok) return fail(`${block.name} was called with invalid parameters:\n- ${coerced.errors.join("\n- ")}`);
  const approval = tool.approval?.(coerced.args);
  const paths = (approval?.paths ?? []).map((path) => resolvePath(deps.context.cwd, path));
  const mode = checkMode(deps.mode, tool.group, tool.name, paths.map((p) => p.display));
  if (!mode.ok) return fail(`${mode.reason} Tools available in this mode: ${available.join(", ")}.`);

  if (approval) {
    const outside = paths.some((p) => p.outsideWorkspace);
    const auto = deps.autoApprove.groups.has(tool.group) && (!outside || deps.autoApprove.outsideWorkspace);
    if (!auto) {
      const decision = await deps.approvals.request({
        tool: tool.name,
        group: tool.group,
        summary: approval.summary,
        params: block.params,
        paths: paths.map((p) => p.absolute),
        outsideWorkspace: outside,
      });
      if (!decision.approved) {
        const feedback = decision.feedback?.trim();
        return {
          status: "denied",
          feedback,
          forModel: feedback
            ? `The user denied ${tool.name} and said:\n<feedback>\n${feedback}\n</feedback>`
            : `The user denied ${tool.name}. Do not repeat it; ask or try another way.`,
        };
      }
    }
  }

  let outcome: ToolOutcome;
  try {
    outcome = await tool.execute(coerced.args, deps.context);
  } catch (err) {
    return fail(`${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (outcome.kind !== "result") return { status: "done", outcome, forModel: "" };
  const isError = outcome.text.startsWith("Error:");
  const text = await cap(tool.name, outcome.text, deps);
  return isError ? { status: "error", forModel: text } : { status: "done", outcome, forModel: text };
}

async function cap(toolName: string, text: string, deps: PipelineDeps): Promise<string> {
  const max = deps.maxResultChars ?? DEFAULT_MAX_RESULT;
  if (text.length <= max) return text;
  const where = deps.saveOverflow ? await deps.saveOverflow(toolName, text) : undefined;
  const rest = where ? ` The full result is saved at ${where}; read it with read_file and start_line.` : "";
  return `${text.slice(0, max)}\n[Result cut at ${max} of ${text.length} characters.${rest}]`;
}
