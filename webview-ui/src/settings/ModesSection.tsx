import { ConfirmBar } from "./ConfirmBar";
import { useCallback, useState } from "react";
import type { ModeView, ProfileView } from "../../../src/shared/protocol/settings";
import { send } from "./api";
import { ModeEditor, type ModeEditorTarget } from "./ModeEditor";
import type { SettingsAsk } from "./model";

function PinSelect({ mode, profiles, ask }: { mode: ModeView; profiles: ProfileView[]; ask: SettingsAsk }) {
  return (
    <select
      aria-label={`Profile pinned to ${mode.name}`}
      value={mode.pinnedProfile ?? ""}
      onChange={(e) => void ask("settings/pinMode", { mode: mode.slug, profile: e.target.value === "" ? null : e.target.value })}
    >
      <option value="">(active profile)</option>
      {profiles.map((p) => (
        <option key={p.name} value={p.name}>
          {p.name}
        </option>
      ))}
      {mode.pinnedProfile && !profiles.some((p) => p.name === mode.pinnedProfile) && <option value={mode.pinnedProfile}>{mode.pinnedProfile} (missing)</option>}
    </select>
  );
}

/** Built-in and custom modes: where each comes from, its pinned profile, and create/edit/customize/delete/export. */
export function ModesSection({ modes, profiles, hasWorkspace, ask }: { modes: ModeView[]; profiles: ProfileView[]; hasWorkspace: boolean; ask: SettingsAsk }) {
  const [editing, setEditing] = useState<ModeEditorTarget | undefined>();
  const close = useCallback(() => setEditing(undefined), []);
  const defaultScope = hasWorkspace ? "project" : "global";
  const [confirming, setConfirming] = useState<ModeView | undefined>();
  const remove = (m: ModeView) => {
    setConfirming(undefined);
    if (m.scope !== "built-in") void ask("settings/deleteMode", { scope: m.scope, slug: m.slug });
  };
  return (
    <section className="ks-section" aria-labelledby="ks-modes">
      <h2 id="ks-modes">Modes</h2>
      <p className="ks-hint">A custom mode with a built-in mode's slug replaces it. New tasks read the mode files.</p>
      <div className="ks-actions">
        <button type="button" data-testid="new-mode" onClick={() => setEditing({ replace: false, scope: defaultScope })}>
          New mode
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!hasWorkspace}
          title={hasWorkspace ? undefined : "Open a folder first"}
          onClick={() => send({ type: "settings/editModes", scope: "project" })}
        >
          Open .kilocodemodes
        </button>
        <button type="button" className="secondary" onClick={() => send({ type: "settings/editModes", scope: "global" })}>
          Open global modes
        </button>
      </div>
      {confirming && (
        <ConfirmBar
          text={confirming.overridesBuiltIn ? `Delete custom mode ${confirming.name}? The built-in ${confirming.slug} mode comes back.` : `Delete mode ${confirming.name} from ${confirming.source}?`}
          onConfirm={() => remove(confirming)}
          onCancel={() => setConfirming(undefined)}
        />
      )}
      {editing && <ModeEditor key={`${editing.mode?.slug ?? "new"}-${editing.replace}`} target={editing} hasWorkspace={hasWorkspace} ask={ask} onDone={close} />}
      <table className="ks-table">
        <thead>
          <tr>
            <th>Mode</th>
            <th>Source</th>
            <th>Pinned profile</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {modes.map((m) => (
            <tr key={m.slug} data-testid="mode" data-slug={m.slug} data-scope={m.scope}>
              <td>
                {m.name} <span className="ks-muted">({m.slug})</span>
                {m.overridesBuiltIn && <span className="ks-badge">overrides built-in</span>}
              </td>
              <td className="ks-muted ks-path" title={m.source}>
                {m.source}
              </td>
              <td>
                <PinSelect mode={m} profiles={profiles} ask={ask} />
              </td>
              <td>
                <div className="ks-actions">
                  {m.scope === "built-in" ? (
                    <button type="button" className="secondary" aria-label={`Customize ${m.name}`} onClick={() => setEditing({ mode: m, replace: false, scope: defaultScope })}>
                      Customize
                    </button>
                  ) : (
                    <>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Edit ${m.name}`}
                        onClick={() => setEditing({ mode: m, replace: true, scope: m.scope === "global" ? "global" : "project" })}
                      >
                        Edit
                      </button>
                      <button type="button" className="secondary danger" aria-label={`Delete ${m.name}`} onClick={() => setConfirming(m)}>
                        Delete
                      </button>
                    </>
                  )}
                  <button type="button" className="secondary" aria-label={`Export YAML of ${m.name}`} onClick={() => void ask("settings/exportMode", { slug: m.slug })}>
                    Export YAML
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
