import * as l10n from "@vscode/l10n";
import { useId } from "react";

/**
 * An in-page "are you sure": VS Code webviews block window.confirm (it returns false at once), so
 * a destructive button asks here instead.
 */
export function ConfirmBar({
  text,
  onConfirm,
  onCancel,
  // Defaults are worked out at each render, after the bundle is set.
  confirmLabel = l10n.t("Delete"),
  cancelLabel = l10n.t("Keep it"),
  testId = "confirm-delete",
}: {
  text: string;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  testId?: string;
}) {
  // Several may be on one page (a chat's checkpoint rows): each labels itself.
  const id = useId();
  return (
    <div className="ks-confirm" role="alertdialog" aria-labelledby={id} data-testid={testId}>
      <span id={id}>{text}</span>
      <button type="button" className="danger" autoFocus onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
    </div>
  );
}
