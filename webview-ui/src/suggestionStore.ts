import type { SlashCommandInfo } from "../../src/shared/protocol/messages";

/**
 * What the host lists for the chat input's / picker. Kept apart from the chat store (like the mode
 * pickers): only the input reads it, and it changes only while the picker is open. (The @ picker's
 * file search is a request: InputPicker.tsx.)
 */
export interface Suggestions {
  commands: SlashCommandInfo[];
}

let current: Suggestions = { commands: [] };
const listeners = new Set<() => void>();

/** Takes `commands/list`; anything else, or a malformed one, is ignored. */
export function applySuggestions(data: unknown): void {
  if (typeof data !== "object" || data === null) return;
  const message = data as { type?: unknown; commands?: unknown };
  if (message.type === "commands/list" && Array.isArray(message.commands)) {
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
