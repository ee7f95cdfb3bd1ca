import type { SlashCommandInfo } from "../../src/shared/protocol/messages";

/**
 * The host's answers for the chat input's @ and / pickers. Kept apart from the chat store (like the
 * mode pickers): only the input reads them, and they change only while a picker is open.
 */
export interface Suggestions {
  /** The answer to the latest `mentions/search`, by its id. */
  files: { id: number; items: { path: string; kind: "file" | "folder" }[] };
  commands: SlashCommandInfo[];
}

let current: Suggestions = { files: { id: -1, items: [] }, commands: [] };
const listeners = new Set<() => void>();

/** Takes `mentions/results` and `commands/list`; anything else, or a malformed one, is ignored. */
export function applySuggestions(data: unknown): void {
  if (typeof data !== "object" || data === null) return;
  const message = data as { type?: unknown; id?: unknown; items?: unknown; commands?: unknown };
  if (message.type === "mentions/results" && typeof message.id === "number" && Array.isArray(message.items)) {
    current = { ...current, files: { id: message.id, items: message.items as Suggestions["files"]["items"] } };
  } else if (message.type === "commands/list" && Array.isArray(message.commands)) {
    current = { ...current, commands: message.commands as SlashCommandInfo[] };
  } else {
    return;
  }
  for (const listener of [...listeners]) listener();
}

// Through globalThis: the host-side unit tests type-check this file without the DOM library.
const page = globalThis as { addEventListener?: (type: "message", listener: (event: { data: unknown }) => void) => void };
page.addEventListener?.("message", (event) => applySuggestions(event.data));

export const suggestionStore = {
  get: (): Suggestions => current,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
