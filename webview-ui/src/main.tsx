// First: the translations are in place before any component renders.
import "./l10nSetup";
import { createRoot } from "react-dom/client";
import type { HostToWebview } from "../../src/shared/protocol/messages";
import { App } from "./App";
import { ChatStore } from "./store";
import { McpStore } from "./mcp/mcpStore";
import { HistoryStore } from "./history/historyStore";
import { send } from "./vscodeApi";
import "@vscode/codicons/dist/codicon.css";
import "./styles.css";

const store = new ChatStore((fn) => requestAnimationFrame(fn));
const mcp = new McpStore();
const history = new HistoryStore();
history.onShow = () => mcp.show("history");
window.addEventListener("message", (event: MessageEvent<HostToWebview>) => {
  const message = event.data;
  if (!message || typeof message !== "object" || typeof message.type !== "string") return;
  // Answers to requests are taken by the page's requester (chatRequests.ts).
  if (message.type === "response") return;
  if (message.type.startsWith("mcp/")) mcp.apply(message as Extract<HostToWebview, { type: `mcp/${string}` }>);
  else if (message.type.startsWith("history/")) history.apply(message as Extract<HostToWebview, { type: `history/${string}` }>);
  else {
    // A new or reopened task (New task in the view's title, say) is shown, whatever view was up.
    if (message.type === "chat/snapshot") mcp.show("chat");
    store.apply(message);
  }
});
createRoot(document.getElementById("root")!).render(<App store={store} mcp={mcp} history={history} />);
send({ type: "view/ready" });
