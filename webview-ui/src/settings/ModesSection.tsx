import * as l10n from "@vscode/l10n";
import { ConfirmBar } from "./ConfirmBar";
import { useCallback, useState } from "react";
import type { ModeView, ProfileView } from "../../../src/shared/protocol/settings";
import { send } from "./api";
import { ModeEditor, type ModeEditorTarget } from "./ModeEditor";
import type { SettingsAsk } from "./model";

function PinSelect({ mode, profiles, ask }: { mode: ModeView; profiles: ProfileView[]; ask: SettingsAsk }) {
  return (
    <select
      aria-label={l10n.t("Profile pinned to {0}", mode.label ?? mode.name)}
      value={mode.pinnedProfile ?? ""}
      onChange={(e) => void ask("settings/pinMode", { mode: mode.slug, profile: e.target.value === "" ? null : e.target.value })}
    >
      <option value="">{l10n.t("(active profile)")}</option>
      {profiles.map((p) => (
        <option key={p.name} value={p.name}>
          {p.name}
        </option>
      ))}
      {mode.pinnedProfile && !profiles.some((p) => p.name === mode.pinnedProfile) && <option value={mode.pinnedProfile}>{l10n.t("{0} (missing)", mode.pinnedProfile)}</option>}
    </select>
  );
}

/** Where a mode comes from: its file, or "built-in" (the host's word for the modes Kiln ships), in the page's language. */
function sourceOf(mode: ModeView): string {
  return mode.scope === "built-in" ? l10n.t("built-in") : mode.source;
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
      <h2 id="ks-modes">{l10n.t("Modes")}</h2>
      <p className="ks-hint">
        {l10n.t("A custom mode with a built-in mode's slug replaces it.")} {l10n.t("New tasks read the mode files.")}
      </p>
      <div className="ks-actions">
        <button type="button" data-testid="new-mode" onClick={() => setEditing({ replace: false, scope: defaultScope })}>
          {l10n.t("New mode")}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!hasWorkspace}
          title={hasWorkspace ? undefined : l10n.t("Open a folder first")}
          onClick={() => send({ type: "settings/editModes", scope: "project" })}
        >
          {l10n.t("Open {0}", ".kilocodemodes")}
        </button>
        <button type="button" className="secondary" onClick={() => send({ type: "settings/editModes", scope: "global" })}>
          {l10n.t("Open global modes")}
        </button>
      </div>
      {confirming && (
        <ConfirmBar
          text={
            confirming.overridesBuiltIn
              ? l10n.t("Delete custom mode {0}? The built-in {1} mode comes back.", confirming.label ?? confirming.name, confirming.slug)
              : l10n.t("Delete mode {0} from {1}?", confirming.label ?? confirming.name, confirming.source)
          }
          onConfirm={() => remove(confirming)}
          onCancel={() => setConfirming(undefined)}
        />
      )}
      {editing && <ModeEditor key={`${editing.mode?.slug ?? "new"}-${editing.replace}`} target={editing} hasWorkspace={hasWorkspace} ask={ask} onDone={close} />}
      <table className="ks-table">
        <thead>
          <tr>
            <th>{l10n.t("Mode")}</th>
            <th>{l10n.t("Source")}</th>
            <th>{l10n.t("Pinned profile")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {modes.map((m) => (
            <tr key={m.slug} data-testid="mode" data-slug={m.slug} data-scope={m.scope}>
              <td>
                {m.label ?? m.name} <span className="ks-muted">({m.slug})</span>
                {m.overridesBuiltIn && <span className="ks-badge">{l10n.t("overrides built-in")}</span>}
              </td>
              <td className="ks-muted ks-path" title={sourceOf(m)}>
                {sourceOf(m)}
              </td>
              <td>
                <PinSelect mode={m} profiles={profiles} ask={ask} />
              </td>
              <td>
                <div className="ks-actions">
                  {m.scope === "built-in" ? (
                    <button type="button" className="secondary" aria-label={l10n.t("Customize {0}", m.label ?? m.name)} onClick={() => setEditing({ mode: m, replace: false, scope: defaultScope })}>
                      {l10n.t("Customize")}
                    </button>
                  ) : (
                    <>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={l10n.t("Edit {0}", m.label ?? m.name)}
                        onClick={() => setEditing({ mode: m, replace: true, scope: m.scope === "global" ? "global" : "project" })}
                      >
                        {l10n.t("Edit")}
                      </button>
                      <button type="button" className="secondary danger" aria-label={l10n.t("Delete {0}", m.label ?? m.name)} onClick={() => setConfirming(m)}>
                        {l10n.t("Delete")}
                      </button>
                    </>
                  )}
                  <button type="button" className="secondary" aria-label={l10n.t("Export YAML of {0}", m.label ?? m.name)} onClick={() => void ask("settings/exportMode", { slug: m.slug })}>
                    {l10n.t("Export YAML")}
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
