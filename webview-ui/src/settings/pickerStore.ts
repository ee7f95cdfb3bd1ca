import type { Pickers } from "../../../src/shared/protocol/messages";

/**
 * The chat input's mode and profile pickers, fed by the host's `chat/pickers` messages. Kept apart
 * from the chat store: it changes rarely and only the input reads it. It listens from the moment
 * the module loads, which is before the chat page says `view/ready`, so the first message is seen.
 */
let current: Pickers = { modes: [], profiles: [] };
const listeners = new Set<() => void>();

export function applyPickers(data: unknown): void {
  if (typeof data !== "object" || data === null) return;
  const message = data as { type?: unknown; pickers?: unknown };
  if (message.type !== "chat/pickers" || typeof message.pickers !== "object" || message.pickers === null) return;
  const pickers = message.pickers as Pickers;
  if (!Array.isArray(pickers.modes) || !Array.isArray(pickers.profiles)) return;
  current = pickers;
  for (const listener of [...listeners]) listener();
}

// Through globalThis: the host-side unit tests type-check this file without the DOM library.
const page = globalThis as { addEventListener?: (type: "message", listener: (event: { data: unknown }) => void) => void };
page.addEventListener?.("message", (event) => applyPickers(event.data));

export const pickerStore = {
  get: (): Pickers => current,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
