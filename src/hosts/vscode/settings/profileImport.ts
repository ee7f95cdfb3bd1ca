import * as l10n from "@vscode/l10n";
import { readFile } from "node:fs/promises";
import * as vscode from "vscode";
import { parseSettingsExport } from "../../../core/import/providerProfiles";
import type { ImportedProfile } from "../../../core/import/types";
import type { ProfileImportView } from "../../../shared/protocol/settings";
import { saveProfile, type RawSettings } from "./profileEdits";
import type { ProfileStore } from "./profileStore";

/** An export is a few KB; a file far past that is not one, and is not read whole. */
const MAX_EXPORT_BYTES = 5_000_000;

function sameProfile(a: ImportedProfile, existing: { kind: string; baseUrl: string; model: string }): boolean {
  return a.kind === existing.kind && (a.baseUrl ?? "") === existing.baseUrl && (a.model ?? "") === existing.model;
}

/**
 * Brings the provider profiles of a Roo, Kilo or Zoo settings export into `kiln.profiles` (added
 * by name; one already there is kept) and their mode pins into `kiln.modeProfiles` where a mode has
 * none. No key is ever read from the export into Kiln: the answer names the profiles that need one,
 * and the Providers section asks for it.
 */
export async function importProfilesFromExport(store: ProfileStore, file: vscode.Uri): Promise<ProfileImportView> {
  if (file.scheme !== "file") throw new Error(l10n.t("{0}: only a file on this machine can be read", file.toString()));
  const path = file.fsPath;
  const bytes = await readFile(path);
  if (bytes.length > MAX_EXPORT_BYTES) throw new Error(l10n.t("{0}: {1} MB is too large for a settings export", path, (bytes.length / 1e6).toFixed(1)));
  const read = parseSettingsExport(bytes.toString("utf8"), path);
  if (!read.ok) throw new Error(read.error);
  const { plan } = read;
  let raw: RawSettings = store.raw();
  const view: ProfileImportView = { file: path, imported: [], alreadyThere: [], skipped: [...plan.skipped], needKey: [] };
  for (const profile of plan.profiles) {
    const state = store.read();
    const existing = state.profiles.find((p) => p.name.toLowerCase() === profile.name.toLowerCase());
    if (existing) {
      if (sameProfile(profile, existing)) view.alreadyThere.push(existing.name);
      else view.skipped.push({ name: profile.name, reason: l10n.t("a different profile named {0} is already here; it was kept", existing.name) });
      continue;
    }
    const { needsKey, ...fields } = profile;
    const result = saveProfile(raw, state, undefined, { baseUrl: "", model: "", protocol: "auto", ...fields });
    if (!result.ok) {
      view.skipped.push({ name: profile.name, reason: `${result.field}: ${result.message}` });
      continue;
    }
    await store.apply(result.edit);
    raw = store.raw();
    view.imported.push(result.profile.name);
    if (needsKey) view.needKey.push(result.profile.name);
  }
  // A mode the user already pinned keeps its pin; a pin to a profile that did not come over is dropped.
  const pins = typeof raw.pins === "object" && raw.pins !== null && !Array.isArray(raw.pins) ? { ...(raw.pins as Record<string, unknown>) } : {};
  const names = new Set(store.read().profiles.map((p) => p.name));
  let pinned = false;
  for (const [mode, profile] of Object.entries(plan.modeProfiles)) {
    if (pins[mode] !== undefined || !names.has(profile)) continue;
    pins[mode] = profile;
    pinned = true;
  }
  if (pinned) await store.apply({ pins });
  return view;
}
