import * as l10n from "@vscode/l10n";
import { useState } from "react";
import type { CheckpointAction, CheckpointItem } from "../../../src/shared/protocol/checkpoints";
import { ConfirmBar } from "../settings/ConfirmBar";
import { send } from "../vscodeApi";
import "./checkpoint.css";

type Restore = Exclude<CheckpointAction, "diff">;

/** What a restore asks before it runs, and its button. */
function confirmation(action: Restore): { text: string; label: string } {
  switch (action) {
    case "restoreFiles":
      return {
        text: l10n.t("Put the files back as they were at this checkpoint? Files created since are removed. Their current state is saved first, as a checkpoint of its own."),
        label: l10n.t("Restore files"),
      };
    case "restoreTask":
      return {
        text: l10n.t("Put the files back as they were at this checkpoint, and take the chat back to it? Everything after it in the chat is removed."),
        label: l10n.t("Restore files and task"),
      };
  }
}

/**
 * A checkpoint between the chat's items: the files as they were before a reply's edits, with a way
 * back. The restores ask first, in the page (webviews block window.confirm). Without a commit it is
 * the note saying why no checkpoint was taken.
 */
export function CheckpointRow({ item }: { item: CheckpointItem }) {
  const [confirming, setConfirming] = useState<Restore | undefined>();
  if (!item.commit) {
    return (
      <div className="checkpoint checkpoint-skipped" data-testid="checkpoint" data-skipped="true" role="note">
        {item.note ?? l10n.t("No checkpoint was taken.")}
      </div>
    );
  }
  const act = (action: CheckpointAction) => send({ type: "chat/checkpoint", id: item.id, action });
  return (
    <div className="checkpoint" data-testid="checkpoint" data-commit={item.commit}>
      <div className="checkpoint-line">
        <span className="checkpoint-title" title={`${item.message}\n${item.commit}`}>
          {l10n.t("Checkpoint")} <code>{item.commit.slice(0, 8)}</code>
        </span>
        {/* Hidden while a restore asks: one set of buttons at a time. */}
        {!confirming && (
          <span className="checkpoint-actions">
            <button className="link-button" data-testid="checkpoint-restore-files" onClick={() => setConfirming("restoreFiles")}>
              {l10n.t("Restore files")}
            </button>
            {item.apiIndex !== undefined && (
              <button className="link-button" data-testid="checkpoint-restore-task" onClick={() => setConfirming("restoreTask")}>
                {l10n.t("Restore files and task")}
              </button>
            )}
            <button className="link-button" data-testid="checkpoint-diff" onClick={() => act("diff")}>
              {l10n.t("Diff since")}
            </button>
          </span>
        )}
      </div>
      {item.note && <div className="checkpoint-note">{item.note}</div>}
      {confirming && (
        <ConfirmBar
          text={confirmation(confirming).text}
          confirmLabel={confirmation(confirming).label}
          cancelLabel={l10n.t("Cancel")}
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
