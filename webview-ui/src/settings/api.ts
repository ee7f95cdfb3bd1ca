import type { SettingsRequests, SettingsToHost } from "../../../src/shared/protocol/settings";
import { createRequester } from "../request";
import { postToHost } from "../vscodeApi";

/** Fire-and-forget messages of the settings page (open a file, the page loaded). */
export function send(message: Exclude<SettingsToHost, { type: "request" }>): void {
  postToHost(message);
}

/** The settings page's requests to the host (SETTINGS_REQUESTS); SettingsModel.ask wraps it for the controls. */
export const settingsRequester = createRequester<SettingsRequests>(postToHost);

// Through globalThis: the host-side unit tests type-check this file without the DOM library.
const page = globalThis as { addEventListener?: (type: "message", listener: (event: { data: unknown }) => void) => void };
page.addEventListener?.("message", (event) => settingsRequester.receive(event.data));
