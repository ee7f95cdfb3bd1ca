import { useSyncExternalStore } from "react";
import { ApproveSection } from "./ApproveSection";
import type { SettingsModel } from "./model";
import { ModesSection } from "./ModesSection";
import { OptionsSection } from "./OptionsSection";
import { ProfilesSection } from "./ProfilesSection";
import { RulesSection } from "./RulesSection";

export function SettingsApp({ model }: { model: SettingsModel }) {
  const view = useSyncExternalStore(model.subscribe, model.get);
  const state = view.state;
  if (!state) return <p className="ks-muted ks-page">Loading…</p>;
  return (
    <main className="ks-page">
      <h1>Kiln Settings</h1>
      {state.errors.length > 0 && (
        <div className="ks-errors" role="alert" data-testid="settings-errors">
          <strong>Some settings were skipped; the rest works:</strong>
          <ul>
            {state.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      {view.last && (
        <p className={view.last.ok ? "ks-status" : "ks-status error"} role="status" data-testid="settings-status">
          {view.last.message}
        </p>
      )}
      <ProfilesSection profiles={state.profiles} active={state.active} ask={model.ask} />
      <ApproveSection approve={state.autoApprove} ask={model.ask} />
      <OptionsSection options={state.options} modes={state.modes} ask={model.ask} />
      <ModesSection modes={state.modes} profiles={state.profiles} hasWorkspace={state.hasWorkspace} ask={model.ask} />
      <RulesSection rules={state.rules} hasWorkspace={state.hasWorkspace} ask={model.ask} />
    </main>
  );
}
