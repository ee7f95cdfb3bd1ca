import * as l10n from "@vscode/l10n";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { ProviderSummary } from "../../../src/shared/protocol/messages";
import { request } from "../chatRequests";
import { failureText, ModelList, useModelList } from "./ModelList";

/**
 * The model picker under the chat input: a button with the model the chat's next request uses, and
 * above the input the provider's list to search and pick from. A pick becomes that profile's model
 * (the host saves it), so the current task's next request and the chat's new tasks use it.
 */
export function ChatModelPicker({ provider }: { provider: ProviderSummary }) {
  const [open, setOpen] = useState(false);
  /** Why the host refused the last pick; the list stays open to pick another. */
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const popoverId = useId();
  const { loaded, load, reset } = useModelList((refresh) => request("chat/listModels", refresh ? { refresh } : {}));

  const close = useCallback(
    (focusButton: boolean) => {
      setOpen(false);
      setProblem(undefined);
      reset();
      if (focusButton) button.current?.focus();
    },
    [reset],
  );
  // A click anywhere else closes the list, as a native menu does.
  useEffect(() => {
    if (!open) return;
    const away = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open, close]);

  const show = () => {
    setOpen(true);
    load(false);
  };
  const pick = (id: string) => {
    if (saving) return;
    if (id === provider.model) return close(true);
    setSaving(true);
    setProblem(undefined);
    request("chat/setModel", { model: id })
      .then(
        () => close(true),
        (err: unknown) => setProblem(failureText(err)),
      )
      .finally(() => setSaving(false));
  };

  return (
    <div className="model-picker" ref={root}>
      <button
        ref={button}
        type="button"
        className="model-button"
        data-testid="chat-model-picker"
        data-model={provider.model}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        aria-label={l10n.t("Model: {0}", provider.model)}
        title={l10n.t("Model: {0} ({1})", provider.model, provider.kind)}
        onClick={() => (open ? close(true) : show())}
      >
        <span className="codicon codicon-sparkle" aria-hidden="true" />
        <span className="model-button-name">{shortName(provider.model)}</span>
        <span className="codicon codicon-chevron-up" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={popoverId}
          className="model-popover"
          role="dialog"
          aria-label={l10n.t("Pick a model")}
          aria-busy={saving}
          data-testid="chat-model-popover"
          onKeyDown={(event) => {
            // Escape from a row; the search box handles its own.
            if (event.key !== "Escape") return;
            event.preventDefault();
            event.stopPropagation();
            close(true);
          }}
        >
          <ModelList loaded={loaded} current={provider.model} problem={problem} onPick={pick} onRefresh={() => load(true)} onClose={() => close(true)} />
        </div>
      )}
    </div>
  );
}

/**
 * The id without its vendor path ("anthropic/claude-sonnet-4.5" shows "claude-sonnet-4.5"): in a
 * narrow row the model's own name is what tells models apart. The whole id is the button's label and title.
 */
function shortName(id: string): string {
  const name = id.slice(id.lastIndexOf("/") + 1);
  return name === "" ? id : name;
}
