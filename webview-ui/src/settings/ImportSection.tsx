import * as l10n from "@vscode/l10n";
import { useEffect, useState } from "react";
import type { ImportPartView, ImportSourceView, ImportSummaryView, ProfileImportView } from "../../../src/shared/protocol/settings";
import { settingsRequester } from "./api";

type Loaded = { summary: ImportSummaryView } | { error: string } | undefined;

/** "2 modes: 1 new, 1 already here" for one kind of thing; undefined when the source has none. */
function partLine(label: string, part: ImportPartView, dryRun: boolean): string | undefined {
  const skipped = part.skipped.length + part.moreSkipped;
  if (part.imported + part.alreadyThere + skipped === 0) return undefined;
  const counts = [
    dryRun ? l10n.t("{0} to bring over", part.imported) : l10n.t("{0} brought over", part.imported),
    ...(part.alreadyThere ? [l10n.t("{0} already here", part.alreadyThere)] : []),
    ...(skipped ? [l10n.t("{0} left out", skipped)] : []),
  ];
  return `${label}: ${counts.join(", ")}`;
}

function Summary({ summary }: { summary: ImportSummaryView }) {
  const parts: [string, ImportPartView][] = [
    [l10n.t("Modes"), summary.modes],
    [l10n.t("Rule files"), summary.rules],
    [l10n.t("MCP servers"), summary.mcp],
    ...(summary.projectMcp ? [[l10n.t("This project's MCP servers (into .kilocode/mcp.json)"), summary.projectMcp] as [string, ImportPartView]] : []),
    [l10n.t("Tasks"), summary.tasks],
  ];
  const lines = parts.flatMap(([label, part]) => partLine(label, part, summary.dryRun) ?? []);
  const skipped = parts.flatMap(([, part]) => part.skipped);
  const more = parts.reduce((sum, [, part]) => sum + part.moreSkipped, 0);
  return (
    <div data-testid={summary.dryRun ? "import-preview" : "import-done"}>
      {lines.length === 0 ? (
        <p className="ks-muted">{l10n.t("Nothing to bring over.")}</p>
      ) : (
        <ul className="ks-import-lines">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <details className="ks-import-skipped">
          <summary>{l10n.t("Left out, and why")}</summary>
          <ul>
            {skipped.map((s) => (
              <li key={`${s.name}:${s.reason}`} className="ks-wrap">
                {s.name}: {s.reason}
              </li>
            ))}
            {more > 0 && <li>{l10n.t("and {0} more (see the Kiln log)", more)}</li>}
          </ul>
        </details>
      )}
    </div>
  );
}

/** One agent found on this machine: what it holds (a dry run, read when the section shows), and Import. */
function Source({ source }: { source: ImportSourceView }) {
  const [preview, setPreview] = useState<Loaded>();
  const [done, setDone] = useState<Loaded>();
  const [busy, setBusy] = useState(false);
  const run = async (dryRun: boolean) => {
    try {
      return { summary: await settingsRequester.request("settings/importFrom", { kind: source.kind, dryRun }) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };
  useEffect(() => {
    let live = true;
    void run(true).then((loaded) => live && setPreview(loaded));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per source shown
  }, [source.kind, source.path]);
  const importNow = async () => {
    setBusy(true);
    setDone(await run(false));
    setBusy(false);
    setPreview(await run(true));
  };
  const shown = done ?? preview;
  return (
    <div className="ks-import-source" data-testid="import-source" data-kind={source.kind}>
      <h3>{source.label}</h3>
      <div className="ks-muted ks-wrap">{source.path}</div>
      {shown === undefined ? (
        <p className="ks-muted">{l10n.t("Reading…")}</p>
      ) : "error" in shown ? (
        <div className="ks-field-error" role="alert">
          {shown.error}
        </div>
      ) : (
        <Summary summary={shown.summary} />
      )}
      <div className="ks-actions">
        <button type="button" data-testid="import-run" disabled={busy || preview === undefined || "error" in preview} onClick={() => void importNow()}>
          {busy ? l10n.t("Importing…") : l10n.t("Import from {0}", source.label)}
        </button>
      </div>
    </div>
  );
}

/** Provider profiles come from a settings export the user picks (keys never come with them). */
function ProfilesFromExport() {
  const [result, setResult] = useState<{ view: ProfileImportView } | { error: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const pick = async () => {
    setBusy(true);
    try {
      const view = await settingsRequester.request("settings/importSettingsFile", {});
      if (view) setResult({ view });
    } catch (err) {
      setResult({ error: err instanceof Error ? err.message : String(err) });
    }
    setBusy(false);
  };
  return (
    <div className="ks-import-source" data-testid="import-profiles">
      <h3>{l10n.t("Provider profiles")}</h3>
      <p className="ks-muted">
        {l10n.t("Roo Code, Kilo Code and Zoo Code keep provider profiles in their settings export (Settings, Export). Keys are never brought over: you set each one here after the import.")}
      </p>
      {result && "error" in result && (
        <div className="ks-field-error" role="alert">
          {result.error}
        </div>
      )}
      {result && "view" in result && (
        <div data-testid="import-profiles-done">
          <ul className="ks-import-lines">
            <li>
              {l10n.t("Profiles: {0} brought over", result.view.imported.length)}
              {result.view.alreadyThere.length > 0 && `, ${l10n.t("{0} already here", result.view.alreadyThere.length)}`}
              {result.view.skipped.length > 0 && `, ${l10n.t("{0} left out", result.view.skipped.length)}`}
            </li>
            {result.view.needKey.length > 0 && <li>{l10n.t("Set a key in Providers for: {0}", result.view.needKey.join(", "))}</li>}
            {result.view.skipped.map((s) => (
              <li key={s.name} className="ks-wrap">
                {s.name}: {s.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="ks-actions">
        <button type="button" className="secondary" data-testid="import-profiles-run" disabled={busy} onClick={() => void pick()}>
          {l10n.t("Import from a settings export…")}
        </button>
      </div>
    </div>
  );
}

/**
 * Another agent's modes, rules, MCP servers and task history, brought over into Kiln's: each agent
 * found on this machine with what it would bring, read without changing anything, and Import.
 */
export function ImportSection({ sources }: { sources: ImportSourceView[] }) {
  return (
    <section className="ks-section" aria-labelledby="ks-import" data-testid="import-section">
      <h2 id="ks-import">{l10n.t("Import from other agents")}</h2>
      <p className="ks-hint">
        {l10n.t(
          "Kilo Code, Roo Code, Zoo Code and Cline keep their modes, rules, MCP servers and tasks in the editor's storage. Import copies them into Kiln's: modes and servers are added by name (yours are kept), rule files are never written over, tasks join the history once. Their files are only read. A project's .roomodes and .roo/rules need no import: Kiln reads them in place.",
        )}
      </p>
      {sources.length === 0 ? (
        <p className="ks-muted" data-testid="import-none">
          {l10n.t("No data from Kilo Code, Roo Code, Zoo Code or Cline was found on this machine.")}
        </p>
      ) : (
        sources.map((source) => <Source key={source.kind} source={source} />)
      )}
      <ProfilesFromExport />
    </section>
  );
}
