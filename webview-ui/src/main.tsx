import { createRoot } from "react-dom/client";
import type { HostToWebview } from "../../src/shared/protocol/messages";
import { App } from "./App";
import { ChatStore } from "./store";
import { send } from "./vscodeApi";
import "./styles.css";

const store = new ChatStore((fn) => requestAnimationFrame(fn));
window.addEventListener("message", (event: MessageEvent<HostToWebview>) => {
  if (event.data && typeof event.data === "object" && typeof event.data.type === "string") store.apply(event.data);
});
createRoot(document.getElementById("root")!).render(<App store={store} />);
send({ type: "view/ready" });
