import * as l10n from "@vscode/l10n";
import { redactToolResult } from "../llm/redact";
import type { LlmContent, LlmImage } from "../llm/types";
import type { Approvals } from "../ports/approvals";
import type { ToolUseBlock } from "../toolcall/types";
import { errorText } from "../tools/defineTool";
import { isUnattendedRead, runToolCall, type PipelineDeps, type ToolCallResult } from "./pipeline";
import type { TaskStatus } from "./ChatLog";
import type { TaskRuntime } from "./taskRuntime";
import { ProgressThrottle } from "./progressThrottle";
import { OutputBuffer } from "../process/outputBuffer";

export const MAX_CONSECUTIVE_ERRORS = 3;
/** How often a card's progress line or output may change. */
const PROGRESS_INTERVAL_MS = 250;
/** A running call's output on its card: its first characters and its latest. */
const CARD_OUTPUT_HEAD = 1_000;
const CARD_OUTPUT_TAIL = 3_000;
/**
 * Reads that need no approval run ahead of the one awaited, but only this many: each holds a file
 * open, and a reply of thousands of reads started all at once ran out of file handles (EMFILE), so
 * that even the task's history could not be saved.
 */
const READS_AHEAD = 8;

export interface ToolCall {
  block: ToolUseBlock;
  /** The chat card showing the call. */
  itemId: string | undefined;
}

export interface ToolTurnOutcome {
  /** Native tool_result blocks, one per native call. */
  results: LlmContent[];
  /** XML results (and notes), as text. */
  texts: string[];
  /** Images of XML results, sent after the texts. */
  images: LlmImage[];
  end: "continue" | "done";
  /** A question or completion the user's next message answers. */
  waitFor?: { block: ToolUseBlock; status: TaskStatus };
}

/**
 * Runs the calls of one reply in order, except that reads needing no approval start together (a few
 * at a time).
 * Native calls each get exactly one tool_result (skipped ones too); XML calls get text results.
 */
export async function runToolTurn(calls: readonly ToolCall[], native: boolean, task: TaskRuntime, pipeline: PipelineDeps, signal: AbortSignal): Promise<ToolTurnOutcome> {
  const { log } = task;
  // Every text of a call that the chat, task history or the model gets: the pipeline redacted the
  // tool's own result, not the errors, progress lines and cancel notes added around it.
  const redact = (text: string) => redactToolResult(text, pipeline.redactSecrets !== false);
  const out: ToolTurnOutcome = { results: [], texts: [], images: [], end: "continue" };
  const started = new Map<number, Promise<ToolCallResult>>();
  const start = (i: number) => {
    log.updateTool(calls[i]!.itemId, "running");
    // Reads started ahead may end up skipped and never awaited: a failure must not go unhandled.
    const itemId = calls[i]!.itemId;
    // The card shows what is asked while the user decides; the host answers by the card's id.
    const approvals: Approvals = {
      request: async (request) => {
        log.setApproval(itemId, {
          summary: request.summary,
          diff: request.diff,
          reason: request.reason,
          outsideWorkspace: request.outsideWorkspace,
          protectedPaths: request.protectedPaths,
          ...(request.inEditor && { inEditor: true }),
        });
        try {
          return await pipeline.approvals.request({ ...request, callId: itemId });
        } finally {
          log.setApproval(itemId, undefined);
        }
      },
    };
    const progress = new ProgressThrottle(PROGRESS_INTERVAL_MS, (text) => log.setProgress(itemId, redact(text)));
    // The card shows the buffer as it is at each tick, not each chunk.
    const output = new OutputBuffer(CARD_OUTPUT_HEAD, CARD_OUTPUT_TAIL);
    const showOutput = new ProgressThrottle(PROGRESS_INTERVAL_MS, () => log.setOutput(itemId, redact(output.since(0))));
    const onOutput = (chunk: string) => {
      output.append(chunk);
      showOutput.push("");
    };
    const cardControls = () => {
      const controls = { continued: new AbortController(), stopped: new AbortController() };
      if (itemId) task.callControls.set(itemId, controls);
      log.setControls(itemId, ["continue", "stop"]);
      return { continued: controls.continued.signal, stopped: controls.stopped.signal };
    };
    const deps = {
      ...pipeline,
      approvals,
      onPhase: (phase: "waiting" | "running") => log.updateTool(itemId, phase),
      onProgress: progress.push,
      onOutput,
      cardControls,
      onApprovalRevised: (diff: string) => log.reviseApprovalDiff(itemId, diff),
    };
    const running = runToolCall(calls[i]!.block, deps)
      .catch((err: unknown): ToolCallResult => ({ status: "error", reason: "failed", forModel: errorText(err instanceof Error ? err.message : String(err)) }))
      .finally(() => {
        progress.stop();
        showOutput.stop();
        if (itemId) task.callControls.delete(itemId);
      });
    started.set(i, running);
  };
  let skipRest: string | undefined;
  /** The next call that may start ahead of its turn; past the end once the run of reads is broken. */
  let aheadFrom = calls.length;
  for (let i = 0; i < calls.length; i++) {
    const { block, itemId } = calls[i]!;
    const report = (forModel: string, isError: boolean, images: LlmImage[] = []) => {
      const shown = task.vision ? images : [];
      const text = images.length > shown.length ? `${forModel}\n[${images.length} image(s) left out: this model does not take images.]` : forModel;
      if (block.id && native) out.results.push({ type: "tool_result", toolUseId: block.id, content: text, isError, ...(shown.length ? { images: shown } : {}) });
      else {
        out.texts.push(`[${block.name}] Result:\n${text}`);
        out.images.push(...shown);
      }
    };
    if (skipRest) {
      log.updateTool(itemId, "error", skipRest);
      report(skipRest, true);
      continue;
    }
    const repeated = task.repetition.check(block);
    if (repeated) {
      log.updateTool(itemId, "error", repeated);
      report(errorText(repeated), true);
      task.stop("stopped", repeated);
      out.end = "done";
      skipRest = `Skipped: ${repeated}`;
      continue;
    }
    if (!started.has(i)) {
      start(i);
      if (isUnattendedRead(block, pipeline)) aheadFrom = i + 1;
      else aheadFrom = calls.length;
    }
    // Keeps up to READS_AHEAD of the unattended reads that follow this one running.
    for (; aheadFrom < calls.length && aheadFrom <= i + READS_AHEAD && isUnattendedRead(calls[aheadFrom]!.block, pipeline); aheadFrom++) start(aheadFrom);
    if (aheadFrom <= i + READS_AHEAD) aheadFrom = calls.length;
    const result = await started.get(i)!;
    if (signal.aborted) {
      // The card keeps what happened (a refused approval, a finished call); the model hears of the cancel.
      log.updateTool(itemId, cardStatus(result), result.status === "done" ? redact(result.forModel) : l10n.t("Cancelled."));
      report("The user cancelled the task.", true);
      skipRest = "Skipped: the task was cancelled.";
      task.stop("stopped", "cancelled");
      out.end = "done";
      continue;
    }
    if (result.status === "done" && result.outcome.kind !== "result") {
      // A question or a completion: the user's next message answers it; later calls are skipped.
      if (result.outcome.kind === "question") {
        log.updateTool(itemId, "done");
        log.append({ id: log.newId(), role: "question", question: result.outcome.question, suggestions: result.outcome.suggestions });
      } else {
        // One "Task completed" block: the card that streamed the result gives way to it.
        if (itemId) log.remove(itemId);
        log.append({ id: log.newId(), role: "completion", result: result.outcome.result, command: result.outcome.command });
      }
      out.waitFor = { block, status: result.outcome.kind === "question" ? "answering" : "completed" };
      skipRest = `Skipped: ${block.name} came first and ended the turn.`;
      continue;
    }
    // A command's output or an MCP result may hold a key (`env`, `cat .env`): the card shows what the model gets.
    const forModel = redact(result.forModel);
    log.updateTool(itemId, cardStatus(result), forModel, noteOf(result));
    // The words the user gave with a Reject are their message: the chat shows them as one, under
    // the card, rather than inside the card's result (which keeps what the model was told).
    if (result.status === "denied" && result.feedback) log.append({ id: log.newId(), role: "user", text: result.feedback });
    report(forModel, result.status !== "done", result.status === "done" ? result.images : undefined);
    if (result.status === "denied" || result.status === "refused") {
      skipRest = `Skipped: the user denied ${block.name} before this call.`;
      task.clearErrors();
    } else if (result.status === "error") {
      if (task.countError() >= MAX_CONSECUTIVE_ERRORS) {
        task.stop("stopped", l10n.t("{0} tool calls failed in a row. Tell Kiln how to go on, or start a new task.", MAX_CONSECUTIVE_ERRORS));
        out.end = "done";
        skipRest = "Skipped: too many errors in a row.";
      }
    } else {
      task.clearErrors();
    }
  }
  return out;
}

/** Why Kiln did not run the call, for the card; the model's text stays the card's result. */
function noteOf(result: ToolCallResult): string | undefined {
  return result.status === "refused" ? result.reason : result.status === "error" ? result.forUser : undefined;
}

/** A call refused by Kiln's rules shows as denied, like one the user said no to. */
function cardStatus(result: ToolCallResult): "done" | "denied" | "error" {
  return result.status === "refused" ? "denied" : result.status;
}
