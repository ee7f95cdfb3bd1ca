import * as l10n from "@vscode/l10n";
import { useSyncExternalStore } from "react";
import { send } from "../vscodeApi";
import { ChatModelPicker } from "./ChatModelPicker";
import { ModePicker } from "./ModePicker";
import { pickerStore } from "./pickerStore";
import "./pickers.css";

/**
 * Mode, profile and model pickers under the chat input. A change applies to the current task's next
 * request and to the chat's new tasks; Ctrl+. (Cmd+.) cycles modes from the Kiln view.
 */
export function Pickers() {
  const pickers = useSyncExternalStore(pickerStore.subscribe, pickerStore.get);
  // Without a usable profile the summary is the reason, not a model; the chat's next request says it.
  const provider = pickers.profile !== undefined ? pickers.provider : undefined;
  // One profile and no modes leave nothing to pick there; the model can still be switched.
  const choosesProfile = pickers.profiles.length > 0 && (pickers.modes.length > 0 || pickers.profiles.length > 1);
  if (pickers.modes.length === 0 && !choosesProfile && !provider) return null;
  return (
    <div className="kp-pickers">
      {pickers.modes.length > 0 && <ModePicker modes={pickers.modes} current={pickers.mode} />}
      {choosesProfile && (
        <select
          data-testid="profile-picker"
          aria-label={l10n.t("Provider profile")}
          title={pickers.provider ? `${pickers.provider.kind} · ${pickers.provider.model}` : l10n.t("Provider profile")}
          value={pickers.profile ?? ""}
          onChange={(e) => send({ type: "chat/setProfile", name: e.target.value })}
        >
          {pickers.profile === undefined && <option value="">{l10n.t("(no usable profile)")}</option>}
          {/* By name: the model has its own picker beside this one, and the room is the model's. */}
          {pickers.profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      )}
      {provider && <ChatModelPicker provider={provider} />}
    </div>
  );
}
