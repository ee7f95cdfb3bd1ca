// First: the translations are in place before any component renders.
import "../l10nSetup";
import { createRoot } from "react-dom/client";
import { send } from "./api";
import { SettingsApp } from "./SettingsApp";
import { SettingsModel } from "./model";
import "./settings.css";

// Listening starts before "ready" is sent, so the first state cannot be missed.
const model = new SettingsModel();
window.addEventListener("message", (event: MessageEvent<unknown>) => model.apply(event.data));
createRoot(document.getElementById("root")!).render(<SettingsApp model={model} />);
send({ type: "settings/ready" });
