import * as l10n from "@vscode/l10n";
import { useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent, type RefObject } from "react";
import type { MentionMatch } from "../../src/shared/protocol/messages";
import { request } from "./chatRequests";
import { applyPick, commandItems, mentionItems, triggerAt, type PickerItem } from "./pickerItems";
import { suggestionStore } from "./suggestionStore";
import { send } from "./vscodeApi";
import "./inputPicker.css";

const LIST_ID = "kiln-input-picker";

/**
 * The @ and / pickers of the chat input: what the text before the caret asks for, the rows to
 * offer (the host answers file searches and lists commands), and the keys that move and pick.
 */
export function useInputPicker(text: string, setText: (text: string) => void, inputRef: RefObject<HTMLTextAreaElement | null>) {
  const suggestions = useSyncExternalStore(suggestionStore.subscribe, suggestionStore.get);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  /** Escape closes the picker for this @ or / until a new one is typed. */
  const [dismissed, setDismissed] = useState<string | undefined>();
  /** The answer to the latest search only: an earlier search that answers late is not shown. */
  const [files, setFiles] = useState<MentionMatch[]>([]);
  const pendingCaret = useRef<number | undefined>(undefined);

  const trigger = triggerAt(text, caret);
  const place = trigger ? `${trigger.kind}:${trigger.start}` : undefined;
  const open = trigger !== undefined && dismissed !== place;
  const query = open ? trigger.query : undefined;
  const kind = open ? trigger.kind : undefined;

  useEffect(() => {
    if (kind === "mention" && query !== undefined && !/^https?:/i.test(query)) {
      let latest = true;
      setFiles([]);
      request("mentions/search", { query: query.replace(/^\//, "") }).then(
        (result) => latest && setFiles(result.items),
        // A failed search offers no files, as an empty answer would.
        () => undefined,
      );
      return () => {
        latest = false;
      };
    }
  }, [kind, query]);
  useEffect(() => {
    if (kind === "command") send({ type: "commands/list" });
  }, [kind]);
  useEffect(() => setActive(0), [kind, query]);
  useEffect(() => {
    // After a pick the new text is rendered; then the caret goes right after the inserted mention.
    const at = pendingCaret.current;
    if (at === undefined) return;
    pendingCaret.current = undefined;
    inputRef.current?.setSelectionRange(at, at);
    inputRef.current?.focus();
  }, [text, inputRef]);

  const items: PickerItem[] = !open ? [] : trigger.kind === "command" ? commandItems(trigger.query, suggestions.commands) : mentionItems(trigger.query, files);
  const current = Math.min(active, Math.max(0, items.length - 1));

  const pick = (item: PickerItem) => {
    if (!trigger) return;
    const next = applyPick(text, caret, trigger, item);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    setText(next.text);
  };

  /** True when the picker took the key (the input must not also act on it). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === "Escape") {
      setDismissed(place);
    } else if (items.length > 0 && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      setActive((current + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length);
    } else if (items.length > 0 && (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing))) {
      pick(items[current]!);
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  };

  const inputProps = {
    role: "combobox",
    "aria-autocomplete": "list" as const,
    "aria-expanded": open,
    "aria-controls": open ? LIST_ID : undefined,
    "aria-activedescendant": open && items.length > 0 ? `${LIST_ID}-${current}` : undefined,
    onSelect: (event: { currentTarget: HTMLTextAreaElement }) => setCaret(event.currentTarget.selectionStart ?? 0),
  };
  const list = open ? <PickerList kind={trigger.kind} items={items} active={current} onPick={pick} onHover={setActive} /> : null;
  return { onKeyDown, inputProps, list, setCaret };
}

function PickerList({ kind, items, active, onPick, onHover }: { kind: "mention" | "command"; items: PickerItem[]; active: number; onPick(item: PickerItem): void; onHover(index: number): void }) {
  return (
    <ul id={LIST_ID} className="input-picker" role="listbox" aria-label={kind === "mention" ? l10n.t("Mention a file, folder or source") : l10n.t("Slash commands")} data-testid="input-picker">
      {items.length === 0 && (
        <li className="input-picker-empty" role="option" aria-selected={false} aria-disabled={true}>
          {kind === "mention" ? l10n.t("No matching files") : l10n.t("No matching commands")}
        </li>
      )}
      {items.map((item, index) => (
        <li
          key={item.key}
          id={`${LIST_ID}-${index}`}
          role="option"
          aria-selected={index === active}
          className={index === active ? "input-picker-item active" : "input-picker-item"}
          data-testid="picker-option"
          // mousedown, not click: the input keeps its focus and caret.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(item);
          }}
          onMouseEnter={() => onHover(index)}
        >
          <span className="input-picker-label">{item.label}</span>
          <span className="input-picker-detail">{item.detail}</span>
        </li>
      ))}
    </ul>
  );
}
