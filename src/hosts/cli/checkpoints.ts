import { resolve } from "node:path";
import type { TaskEvent } from "../../core/agent/Task";
import { ShadowCheckpoints } from "../../core/checkpoints/ShadowCheckpoints";
import { TaskCheckpoints } from "../../core/checkpoints/taskCheckpoints";
import type { Logger } from "../../core/ports";
import type { CliArgs } from "./args";

/** The same cap as the extension's default (kiln.checkpoints.maxTotalMB). */
const MAX_TOTAL_BYTES = 500 * 1024 * 1024;

/** The checkpoints of a run: in --checkpoint-dir, never in the workspace; undefined with --no-checkpoints. */
export function cliCheckpoints(args: CliArgs, workspace: string, logger: Logger): TaskCheckpoints | undefined {
  if (!args.checkpointDir) return undefined;
  const store = new ShadowCheckpoints({ storage: resolve(args.checkpointDir), workspace });
  return TaskCheckpoints.create({ store, maxTotalBytes: () => MAX_TOTAL_BYTES, logger });
}

/**
 * What the terminal shows of a checkpoint when it appears: a line on stderr with the commit to
 * restore, or with --json an event of its own on stdout (beside the usual `appended` one).
 */
export function printCheckpoint(event: TaskEvent, json: boolean): void {
  if (event.type !== "appended" || event.item.role !== "checkpoint") return;
  const { commit, message, note } = event.item;
  if (json) {
    if (commit) process.stdout.write(`${JSON.stringify({ type: "checkpoint", commit, message })}\n`);
    return;
  }
  const line = commit ? `[checkpoint ${commit.slice(0, 12)}: ${message}; kiln restore-checkpoint ${commit.slice(0, 12)} puts the files back]` : `[${note ?? "no checkpoint"}]`;
  process.stderr.write(`\n${line}${commit && note ? `\n[${note}]` : ""}\n`);
}

/** `kiln restore-checkpoint COMMIT`: the workspace's files as they were at the checkpoint, byte for byte. */
export async function restoreCheckpoint(args: CliArgs, out: (text: string) => void): Promise<number> {
  const workspace = resolve(args.workspace);
  const store = new ShadowCheckpoints({ storage: resolve(args.checkpointDir!), workspace });
  try {
    // The state before the restore is saved in the same task's checkpoints, so it can be undone.
    const task = (await store.taskOf(args.commit!)) ?? "restores";
    const { restored, removed, before } = await store.restore(task, args.commit!);
    if (args.json) {
      out(`${JSON.stringify({ type: "restored", commit: args.commit, restored, removed, before })}\n`);
      return 0;
    }
    out(`Restored checkpoint ${args.commit} in ${workspace}: ${restored.length} file(s) put back, ${removed.length} created since removed.\n`);
    for (const path of restored) out(`  restored ${path}\n`);
    for (const path of removed) out(`  removed  ${path}\n`);
    out(`The files as they were just before: checkpoint ${before} (kiln restore-checkpoint ${before.slice(0, 12)} undoes this).\n`);
    return 0;
  } catch (err) {
    // Each workspace has its own checkpoints: a commit of another folder is not found here.
    const hint = args.workspaceGiven ? "" : ` (looked in the checkpoints of ${workspace}; --workspace names another folder)`;
    process.stderr.write(`kiln: ${err instanceof Error ? err.message : String(err)}${hint}\n`);
    return 1;
  }
}
