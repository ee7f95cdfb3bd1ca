import type { ModeView, ProfileView } from "../../../src/shared/protocol/settings";
import { requestId, send } from "./api";

/** Built-in and custom modes, where each comes from, the profile pinned to it, and export. */
export function ModesSection({ modes, profiles, hasWorkspace }: { modes: ModeView[]; profiles: ProfileView[]; hasWorkspace: boolean }) {
  return (
    <section className="ks-section" aria-labelledby="ks-modes">
      <h2 id="ks-modes">Modes</h2>
      <div className="ks-actions">
        <button type="button" disabled={!hasWorkspace} title={hasWorkspace ? undefined : "Open a folder first"} onClick={() => send({ type: "settings/editModes", scope: "project" })}>
          Edit .kilocodemodes
        </button>
        <button type="button" className="secondary" onClick={() => send({ type: "settings/editModes", scope: "global" })}>
          Edit global modes
        </button>
      </div>
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
            <tr key={m.slug} data-testid="mode" data-slug={m.slug}>
              <td>
                {m.name} <span className="ks-muted">({m.slug})</span>
              </td>
              <td className="ks-muted ks-path" title={m.source}>
                {m.source}
              </td>
              <td>
                <select
                  aria-label={`Profile pinned to ${m.name}`}
                  value={m.pinnedProfile ?? ""}
                  onChange={(e) => send({ type: "settings/pinMode", requestId: requestId(), mode: m.slug, profile: e.target.value === "" ? null : e.target.value })}
                >
                  <option value="">(active profile)</option>
                  {profiles.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.name}
                    </option>
                  ))}
                  {m.pinnedProfile && !profiles.some((p) => p.name === m.pinnedProfile) && <option value={m.pinnedProfile}>{m.pinnedProfile} (missing)</option>}
                </select>
              </td>
              <td>
                <button type="button" className="secondary" onClick={() => send({ type: "settings/exportMode", requestId: requestId(), slug: m.slug })}>
                  Export YAML
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
