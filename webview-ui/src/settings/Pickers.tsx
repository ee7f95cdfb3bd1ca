import * as l10n from "@vscode/l10n";
import { useSyncExternalStore } from "react";
import { send } from "../vscodeApi";
import { ModePicker } from "./ModePicker";
import { pickerStore } from "./pickerStore";
import "./pickers.css";

/**
 * Mode and profile pickers under the chat input. A change applies to the current task's next
 * request and to the chat's new tasks; Ctrl+. (Cmd+. on macOS) cycles modes from the Kiln view.
 */
export function Pickers() {
  const pickers = useSyncExternalStore(pickerStore.subscribe, pickerStore.get);
  if (pickers.modes.length === 0 && pickers.profiles.length <= 1) return null;
  return (
    <div className="kp-pickers">
      {pickers.modes.length > 0 && <ModePicker modes={pickers.modes} current={pickers.mode} />}
      {pickers.profiles.length > 0 && (
        <select
          data-testid="profile-picker"
          aria-label={l10n.t("Provider profile")}
          title={pickers.provider ? `${pickers.provider.kind} · ${pickers.provider.model}` : l10n.t("Provider profile")}
          value={pickers.profile ?? ""}
          onChange={(e) => send({ type: "chat/setProfile", name: e.target.value })}
        >
          {pickers.profile === undefined && <option value="">{l10n.t("(no usable profile)")}</option>}
          {pickers.profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name} · {p.model || p.kind}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
