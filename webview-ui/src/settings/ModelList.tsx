import * as l10n from "@vscode/l10n";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { RequestError } from "../../../src/shared/protocol/requests";
import type { ModelListAnswer } from "../../../src/shared/protocol/settings";
import { filterModels, formatPrice, formatTokens } from "../../../src/shared/modelList";
import "./pickers.css";

/** Rows drawn at once: a list of 500 stays quick to draw and to read; the search narrows it. */
const SHOWN = 100;
/**
 * Rows drawn in the first frame, more than the box shows: a list appears in about half the time it
 * takes to draw all of them (npm run bench), and the rest follow in the next frame.
 */
const FIRST_FRAME = 30;

export type LoadedModels = { state: "idle" } | { state: "loading" } | { state: "failed"; message: string } | ({ state: "ready" } & ModelListAnswer);

/** The host's readable reason, as a request rejects with it. */
export function failureText(err: unknown): string {
  return err instanceof RequestError || err instanceof Error ? err.message : String(err);
}

/**
 * A model list asked of the host: `load` asks (again, or afresh with refresh), and only the answer to
 * the last question is kept, so a slow first answer cannot replace the refreshed one.
 */
export function useModelList(ask: (refresh: boolean) => Promise<ModelListAnswer>) {
  const [loaded, setLoaded] = useState<LoadedModels>({ state: "idle" });
  const asked = useRef(0);
  // The latest `ask` (it reads the form as it is now), behind functions that stay the same.
  const asker = useRef(ask);
  asker.current = ask;
  const load = useCallback((refresh: boolean) => {
    const generation = ++asked.current;
    setLoaded({ state: "loading" });
    asker.current(refresh).then(
      (answer) => generation === asked.current && setLoaded({ state: "ready", ...answer }),
      (err: unknown) => generation === asked.current && setLoaded({ state: "failed", message: failureText(err) }),
    );
  }, []);
  const reset = useCallback(() => {
    asked.current++;
    setLoaded({ state: "idle" });
  }, []);
  return { loaded, load, reset };
}

/**
 * The searchable list both model pickers show (the profile editor's and the chat's): a search box
 * (focused), Refresh, and one row per model with its id, name, window, prices and what it takes.
 * Keyboard: arrows move through the rows, Enter picks the one marked (the first match until then),
 * Escape closes.
 */
export function ModelList({
  loaded,
  current,
  onPick,
  onRefresh,
  onClose,
  closeButton = false,
  problem,
}: {
  loaded: LoadedModels;
  /** The model in use, marked as selected. */
  current?: string;
  onPick(id: string): void;
  onRefresh(): void;
  onClose(): void;
  /** A Close button beside Refresh, for a picker that is not closed by a click outside it. */
  closeButton?: boolean;
  /** Why the last pick was refused, shown above the list. */
  problem?: string;
}) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);
  const shown = useMemo(() => (loaded.state === "ready" ? filterModels(loaded.models, query) : []), [loaded, query]);
  const [limit, setLimit] = useState(FIRST_FRAME);
  const drawn = shown.slice(0, limit);
  const marked = Math.min(active, Math.max(0, drawn.length - 1));

  useEffect(() => {
    if (limit >= SHOWN || shown.length <= limit) return;
    const frame = requestAnimationFrame(() => setLimit(SHOWN));
    return () => cancelAnimationFrame(frame);
  }, [limit, shown.length]);

  // The marked row stays in view as the arrows move it through a list taller than its box.
  useEffect(() => {
    list.current?.querySelector(`[data-index="${marked}"]`)?.scrollIntoView?.({ block: "nearest" });
  }, [marked]);

  const onSearchKey = (event: KeyboardEvent) => {
    const last = drawn.length - 1;
    const moves: Record<string, number> = { ArrowDown: Math.min(last, marked + 1), ArrowUp: Math.max(0, marked - 1), PageDown: Math.min(last, marked + 10), PageUp: Math.max(0, marked - 10) };
    if (event.key in moves) {
      if (last >= 0) setActive(moves[event.key]!);
    } else if (event.key === "Enter") {
      if (drawn[marked]) onPick(drawn[marked].id);
    } else if (event.key === "Escape") {
      onClose();
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };
  const optionId = (index: number) => `${listId}-${index}`;

  return (
    <>
      <div className="ks-model-search">
        <input
          data-testid="model-search"
          role="combobox"
          aria-label={l10n.t("Search models")}
          aria-expanded={loaded.state === "ready"}
          aria-controls={loaded.state === "ready" ? listId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={drawn.length > 0 ? optionId(marked) : undefined}
          placeholder={l10n.t("Search models")}
          value={query}
          autoFocus
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onSearchKey}
        />
        <button type="button" className="secondary" data-testid="refresh-models" onClick={onRefresh} disabled={loaded.state === "loading"}>
          {l10n.t("Refresh")}
        </button>
        {closeButton && (
          <button type="button" className="secondary" onClick={onClose}>
            {l10n.t("Close")}
          </button>
        )}
      </div>
      {problem && (
        <p className="ks-field-error" role="alert" data-testid="model-pick-error">
          {problem}
        </p>
      )}
      {loaded.state === "loading" && <p className="ks-hint">{l10n.t("Asking the provider for its models…")}</p>}
      {loaded.state === "failed" && (
        <p className="ks-field-error" role="alert" data-testid="models-error">
          {loaded.message}
        </p>
      )}
      {loaded.state === "ready" && (
        <>
          <p className="ks-hint" data-testid="models-count">
            {loaded.source === "table"
              ? l10n.t("{0} models Kiln knows (this provider publishes no list)", loaded.models.length)
              : query.trim()
                ? l10n.t("{0} of {1} models match", shown.length, loaded.models.length)
                : l10n.t("{0} models; prices are USD per million tokens, in / out", loaded.models.length)}
          </p>
          <ul ref={list} id={listId} className="ks-model-list" role="listbox" aria-label={l10n.t("Models")}>
            {drawn.map((m, i) => (
              <li
                key={m.id}
                id={optionId(i)}
                role="option"
                aria-selected={m.id === current}
                tabIndex={0}
                className={i === marked ? "active" : undefined}
                data-testid="model-option"
                data-model={m.id}
                data-index={i}
                onClick={() => onPick(m.id)}
                onKeyDown={(e) => {
                  if (e.key !== "Enter" && e.key !== " ") return;
                  e.preventDefault();
                  onPick(m.id);
                }}
              >
                <span className="ks-model-name">{m.name ?? m.id}</span>
                {m.name && <span className="ks-model-id">{m.id}</span>}
                <span className="ks-model-facts">
                  <span title={l10n.t("Context window")}>{m.contextWindow ? formatTokens(m.contextWindow) : "?"}</span>
                  <span title={l10n.t("Price per million tokens, in / out")}>
                    {formatPrice(m.inputPrice, l10n.t("free"))} / {formatPrice(m.outputPrice, l10n.t("free"))}
                  </span>
                  {m.tools && <span className="ks-badge">{l10n.t("tools")}</span>}
                  {m.vision && <span className="ks-badge">{l10n.t("vision")}</span>}
                </span>
              </li>
            ))}
          </ul>
          {shown.length > SHOWN && <p className="ks-hint">{l10n.t("{0} more: type to narrow the list", shown.length - SHOWN)}</p>}
        </>
      )}
    </>
  );
}
