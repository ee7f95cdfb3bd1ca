import type { Task } from "../../core/agent/Task";
import { HistoryStore } from "../../core/history/HistoryStore";
import { TaskRecorder } from "../../core/history/recorder";
import type { HistoryEntry, SavedTask } from "../../core/history/types";
import { isProviderKind } from "../../core/llm/types";
import { formatUsd } from "../../core/llm/models";
import type { Logger } from "../../core/ports";
import type { CliArgs } from "./args";
import { NodeFileSystem } from "../../platform/node/nodeFileSystem";

/** `kiln history`: the saved tasks, newest first, one per line (or as JSON). */
export async function printHistory(args: CliArgs, out: (text: string) => void): Promise<number> {
  if (!args.historyDir) {
    out("kiln: --no-history: there is no history to list\n");
    return 2;
  }
  const list = await new HistoryStore(args.historyDir, new NodeFileSystem()).list();
  for (const problem of list.problems) process.stderr.write(`kiln: ${problem}\n`);
  if (args.json) {
    out(`${JSON.stringify(list.entries)}\n`);
    return 0;
  }
  if (list.entries.length === 0) out("No saved tasks.\n");
  for (const e of list.entries) {
    const cost = e.cost === undefined ? "" : ` ${formatUsd(e.cost)}`;
    out(
      `${e.id}  ${new Date(e.updatedAt).toISOString()}  ${e.status === "running" ? "interrupted" : e.status}  ${e.mode}  ${e.tokensIn + e.tokensOut} tokens${cost}  ${e.title}\n    ${e.workspace}\n`,
    );
  }
  return 0;
}

/** The task `kiln resume ID` goes on with; a clear error when there is none or it is damaged. */
export async function loadSaved(args: CliArgs): Promise<SavedTask> {
  try {
    return await new HistoryStore(args.historyDir!, new NodeFileSystem()).load(args.resumeId!);
  } catch (err) {
    throw new Error(`cannot resume ${args.resumeId}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * A resumed task goes on with its own provider, endpoint and model, unless the flags name others:
 * a flag wins, and a different --provider takes none of the task's endpoint or model with it.
 * A task saved before the provider was kept goes on with the flags and environment, as before.
 */
export function providerForResume(args: CliArgs, entry: HistoryEntry): void {
  const kind = entry.provider;
  if (!isProviderKind(kind)) return;
  if (args.given.kind && args.settings.kind !== kind) return;
  args.settings.kind = kind;
  if (!args.given.baseUrl) args.settings.baseUrl = entry.baseUrl ?? "";
  if (!args.given.model && entry.model) args.settings.model = entry.model;
}

/** Saves `task` to history while it runs; the returned flush saves what is left before exit. */
export function recordTask(args: CliArgs, task: Task, logger: Logger): () => Promise<void> {
  if (!args.historyDir) return async () => {};
  const recorder = new TaskRecorder(task, new HistoryStore(args.historyDir, new NodeFileSystem()), logger);
  return () => recorder.flush();
}
