/**
 * An in-page "are you sure": VS Code webviews block window.confirm (it returns false at once), so
 * a destructive button asks here instead.
 */
export function ConfirmBar({ text, onConfirm, onCancel }: { text: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div className="ks-confirm" role="alertdialog" aria-labelledby="ks-confirm-text" data-testid="confirm-delete">
      <span id="ks-confirm-text">{text}</span>
      <button type="button" className="danger" autoFocus onClick={onConfirm}>
        Delete
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Keep it
      </button>
    </div>
  );
}
