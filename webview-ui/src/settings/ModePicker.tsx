import * as l10n from "@vscode/l10n";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { Pickers } from "../../../src/shared/protocol/messages";
import { send } from "../vscodeApi";

type PickerMode = Pickers["modes"][number];

/** Built-in modes by their codicon; a custom mode gets the generic one. */
const MODE_ICONS: Record<string, string> = { code: "code", architect: "compass", ask: "question", debug: "bug", orchestrator: "organization" };

function iconOf(slug: string): string {
  return MODE_ICONS[slug] ?? "symbol-misc";
}

/**
 * The mode picker under the chat input: a button with the current mode that opens a list of the
 * modes, each with its icon and what it is for, and "Edit modes…" below. Keyboard: arrows move,
 * Enter picks, Escape closes; Ctrl+. (Cmd+.) in the input cycles without opening it.
 */
export function ModePicker({ modes, current }: { modes: readonly PickerMode[]; current: string | undefined }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();
  const mode = modes.find((m) => m.slug === current);

  // A click anywhere else closes the list, as a native menu does.
  useEffect(() => {
    if (!open) return;
    const away = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open]);
  useEffect(() => {
    if (open) list.current?.focus();
  }, [open]);

  const show = () => {
    setActive(
      Math.max(
        0,
        modes.findIndex((m) => m.slug === current),
      ),
    );
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const pick = (slug: string) => {
    if (slug !== current) send({ type: "chat/setMode", slug });
    close();
  };
  const onListKey = (event: KeyboardEvent) => {
    const last = modes.length - 1;
    const moves: Record<string, number> = { ArrowDown: Math.min(last, active + 1), ArrowUp: Math.max(0, active - 1), Home: 0, End: last };
    if (event.key in moves) setActive(moves[event.key]!);
    else if (event.key === "Enter" || event.key === " ") pick(modes[active]!.slug);
    else if (event.key === "Escape" || event.key === "Tab") close();
    else return;
    event.preventDefault();
  };

  return (
    <div className="mode-picker" ref={root}>
      <button
        ref={button}
        type="button"
        className="mode-button"
        data-testid="mode-picker"
        data-mode={current}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={l10n.t("Mode: {0}", mode?.name ?? l10n.t("none"))}
        title={l10n.t("Mode: {0} (Ctrl+. cycles)", mode?.name ?? l10n.t("none"))}
        onClick={() => (open ? close() : show())}
        onKeyDown={(event) => {
          if (event.key === "ArrowUp" || event.key === "ArrowDown") {
            event.preventDefault();
            show();
          }
        }}
      >
        <span className={`codicon codicon-${iconOf(current ?? "")}`} aria-hidden="true" />
        <span className="mode-button-name">{mode?.name ?? l10n.t("Mode")}</span>
        <span className="codicon codicon-chevron-up" aria-hidden="true" />
      </button>
      {open && (
        <div className="mode-popover" data-testid="mode-popover">
          <ul ref={list} id={listId} role="listbox" aria-label={l10n.t("Modes")} tabIndex={0} aria-activedescendant={`${listId}-${active}`} onKeyDown={onListKey}>
            {modes.map((m, i) => (
              <li
                key={m.slug}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={m.slug === current}
                className={`mode-option${i === active ? " active" : ""}`}
                data-testid="mode-option"
                data-mode={m.slug}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(m.slug)}
              >
                <span className={`codicon codicon-${iconOf(m.slug)} mode-option-icon`} aria-hidden="true" />
                <span className="mode-option-name">{m.name}</span>
                {m.slug === current && <span className="codicon codicon-check mode-option-check" aria-hidden="true" />}
                {m.description && <span className="mode-option-description">{m.description}</span>}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="link-button mode-edit"
            data-testid="edit-modes"
            onClick={() => {
              setOpen(false);
              send({ type: "chat/openSettings", section: "modes" });
            }}
          >
            <span className="codicon codicon-gear" aria-hidden="true" /> {l10n.t("Edit modes…")}
          </button>
        </div>
      )}
    </div>
  );
}
