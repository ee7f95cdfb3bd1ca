import { useState } from "react";
import type { CheckpointAction, CheckpointItem } from "../../../src/shared/protocol/checkpoints";
import { ConfirmBar } from "../settings/ConfirmBar";
import { send } from "../vscodeApi";
import "./checkpoint.css";

const CONFIRM: Record<Exclude<CheckpointAction, "diff">, { text: string; label: string }> = {
  restoreFiles: {
    text: "Put the files back as they were at this checkpoint? Files created since are removed. Their current state is saved first, as a checkpoint of its own.",
    label: "Restore files",
  },
  restoreTask: {
    text: "Put the files back as they were at this checkpoint, and take the chat back to it? Everything after it in the chat is removed.",
    label: "Restore files and task",
  },
};

/**
 * A checkpoint between the chat's items: the files as they were before a reply's edits, with a way
 * back. The restores ask first, in the page (webviews block window.confirm). Without a commit it is
 * the note saying why no checkpoint was taken.
 */
export function CheckpointRow({ item }: { item: CheckpointItem }) {
  const [confirming, setConfirming] = useState<Exclude<CheckpointAction, "diff"> | undefined>();
  if (!item.commit) {
    return (
      <div className="checkpoint checkpoint-skipped" data-testid="checkpoint" data-skipped="true" role="note">
        {item.note ?? "No checkpoint was taken."}
      </div>
    );
  }
  const act = (action: CheckpointAction) => send({ type: "chat/checkpoint", id: item.id, action });
  return (
    <div className="checkpoint" data-testid="checkpoint" data-commit={item.commit}>
      <div className="checkpoint-line">
        <span className="checkpoint-title" title={`${item.message}\n${item.commit}`}>
          Checkpoint <code>{item.commit.slice(0, 8)}</code>
        </span>
        {/* Hidden while a restore asks: one set of buttons at a time. */}
        {!confirming && (
          <span className="checkpoint-actions">
            <button className="link-button" data-testid="checkpoint-restore-files" onClick={() => setConfirming("restoreFiles")}>
              Restore files
            </button>
            {item.apiIndex !== undefined && (
              <button className="link-button" data-testid="checkpoint-restore-task" onClick={() => setConfirming("restoreTask")}>
                Restore files and task
              </button>
            )}
            <button className="link-button" data-testid="checkpoint-diff" onClick={() => act("diff")}>
              Diff since
            </button>
          </span>
        )}
      </div>
      {item.note && <div className="checkpoint-note">{item.note}</div>}
      {confirming && (
        <ConfirmBar
          text={CONFIRM[confirming].text}
          confirmLabel={CONFIRM[confirming].label}
          cancelLabel="Cancel"
          testId="checkpoint-confirm"
          onConfirm={() => {
            setConfirming(undefined);
            act(confirming);
          }}
          onCancel={() => setConfirming(undefined)}
        />
      )}
    </div>
  );
}
