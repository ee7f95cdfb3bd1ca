import type { ChatRequests } from "../../src/shared/protocol/messages";
import { createRequester } from "./request";
import { send } from "./vscodeApi";

/** The chat page's requests to the host (CHAT_REQUESTS): the @ picker's search and the MCP view's actions. */
export const chatRequester = createRequester<ChatRequests>(send);
export const request = chatRequester.request;

// Through globalThis: the host-side unit tests type-check this file without the DOM library.
const page = globalThis as { addEventListener?: (type: "message", listener: (event: { data: unknown }) => void) => void };
page.addEventListener?.("message", (event) => chatRequester.receive(event.data));
