import * as l10n from "@vscode/l10n";
import { useEffect, useSyncExternalStore } from "react";
import type { SettingsSection } from "../../../src/shared/protocol/settings";
import { ApproveSection } from "./ApproveSection";
import { CodeIndexSection } from "./CodeIndexSection";
import type { SettingsModel } from "./model";
import { ModesSection } from "./ModesSection";
import { OptionsSection } from "./OptionsSection";
import { ProfilesSection } from "./ProfilesSection";
import { RulesSection } from "./RulesSection";
import { SkillsSection } from "./SkillsSection";
import { ImportSection } from "./ImportSection";

/** Each section's heading, by the name the host and the navigation use. */
const SECTIONS: { section: SettingsSection; id: string }[] = [
  { section: "providers", id: "ks-profiles" },
  { section: "autoApprove", id: "ks-approve" },
  { section: "options", id: "ks-options" },
  { section: "modes", id: "ks-modes" },
  { section: "rules", id: "ks-rules" },
  { section: "skills", id: "ks-skills" },
  { section: "codeIndex", id: "ks-code-index" },
  { section: "import", id: "ks-import" },
];

/** A section's name in the navigation; translated when drawn (the bundle is set after the modules load). */
function sectionTitle(section: SettingsSection): string {
  switch (section) {
    case "providers":
      return l10n.t("Providers");
    case "autoApprove":
      return l10n.t("Auto-approve");
    case "options":
      return l10n.t("Limits and tools");
    case "modes":
      return l10n.t("Modes");
    case "rules":
      return l10n.t("Rules");
    case "skills":
      return l10n.t("Skills");
    case "codeIndex":
      return l10n.t("Codebase index");
    case "import":
      return l10n.t("Import");
  }
}

/** Scrolls to a section's heading and puts the keyboard there, as a link to it would. */
function showSection(id: string): void {
  const heading = document.getElementById(id);
  if (!heading) return;
  heading.setAttribute("tabindex", "-1");
  heading.scrollIntoView({ block: "start" });
  heading.focus({ preventScroll: true });
}

export function SettingsApp({ model }: { model: SettingsModel }) {
  const view = useSyncExternalStore(model.subscribe, model.get);
  const state = view.state;
  const reveal = view.reveal;
  useEffect(() => {
    const target = reveal && SECTIONS.find((s) => s.section === reveal.section);
    if (target && state) showSection(target.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per reveal, once the sections are drawn
  }, [reveal?.id, state !== undefined]);
  if (!state) return <p className="ks-muted ks-page">{l10n.t("Loading…")}</p>;
  return (
    <main className="ks-page">
      <h1>{l10n.t("Kiln Settings")}</h1>
      <nav className="ks-nav" aria-label={l10n.t("Settings sections")} data-testid="settings-nav">
        {SECTIONS.map(({ section, id }) => (
          <a
            key={id}
            href={`#${id}`}
            onClick={(event) => {
              event.preventDefault();
              showSection(id);
            }}
          >
            {sectionTitle(section)}
          </a>
        ))}
      </nav>
      {state.errors.length > 0 && (
        <div className="ks-errors" role="alert" data-testid="settings-errors">
          <strong>{l10n.t("Some settings were skipped; the rest works:")}</strong>
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
      <SkillsSection skills={state.skills} ask={model.ask} />
      <CodeIndexSection index={state.codeIndex} hasWorkspace={state.hasWorkspace} ask={model.ask} />
      <ImportSection sources={state.imports} />
    </main>
  );
}
