/**
 * What saving, renaming and deleting a profile changes in the settings, computed without touching
 * them (pure, unit-tested). Entries of `kiln.profiles` this edit is not about are copied untouched,
 * even invalid ones: the user may be halfway through fixing them by hand.
 */
import * as l10n from "@vscode/l10n";
import { DEFAULT_PROFILE, findProfile, idFromName, newProfileId, secretNameOf, toSetting, validateProfile, type Profile, type ProfilesState } from "./profiles";

/** The raw values of the settings an edit may change. */
export interface RawSettings {
  profiles: unknown;
  active: unknown;
  pins: unknown;
}

export interface SettingsEdit {
  /** New value of `kiln.profiles`, when it changes. */
  profiles?: unknown[];
  /** New value of `kiln.activeProfile` ("" means the default profile). */
  active?: string;
  /** New value of `kiln.modeProfiles`. */
  pins?: Record<string, unknown>;
  /** New `kiln.provider.*` values, when the default profile was edited. */
  legacy?: Profile;
  /** A SecretStorage entry to remove (the key of a deleted profile). */
  deleteSecret?: string;
}

export type EditResult = { ok: true; edit: SettingsEdit; profile: Profile } | { ok: false; field: string; message: string };

function rawList(raw: unknown): unknown[] {
  return Array.isArray(raw) ? [...raw] : [];
}

function rawPins(raw: unknown): Record<string, unknown> {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
}

function sameName(a: unknown, b: string): boolean {
  return typeof a === "string" && a.trim().toLowerCase() === b.toLowerCase();
}

function indexOfName(list: unknown[], name: string): number {
  return list.findIndex((entry) => sameName((entry as { name?: unknown } | null)?.name, name));
}

/**
 * Creates a profile (`original` undefined) or replaces the one named `original`, keeping its id so
 * its key stays attached through a rename; pins and the active profile follow a rename.
 */
export function saveProfile(raw: RawSettings, state: ProfilesState, original: string | undefined, input: unknown, makeId: () => string = newProfileId): EditResult {
  const editingDefault = original !== undefined && original.toLowerCase() === DEFAULT_PROFILE;
  if (editingDefault) {
    const result = validateProfile({ ...(input as object), name: DEFAULT_PROFILE }, true);
    return result.ok ? { ok: true, edit: { legacy: result.profile }, profile: result.profile } : result;
  }
  const list = rawList(raw.profiles);
  const index = original === undefined ? -1 : indexOfName(list, original);
  if (original !== undefined && index === -1) return { ok: false, field: "name", message: l10n.t('there is no profile "{0}" any more', original) };
  const existing = index === -1 ? undefined : (list[index] as { id?: unknown; name?: unknown });
  // A hand-written entry without an id had its key filed under the id made from its name.
  const id = existing ? (typeof existing.id === "string" ? existing.id : idFromName(String(existing.name).trim())) : makeId();
  const { id: _ignored, ...fields } = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const result = validateProfile({ ...fields, id });
  if (!result.ok) return result;
  const name = result.profile.name;
  const clash = state.profiles.find((p) => p.name.toLowerCase() === name.toLowerCase() && (original === undefined || p.name.toLowerCase() !== original.toLowerCase()));
  if (clash) return { ok: false, field: "name", message: l10n.t('a profile named "{0}" already exists', clash.name) };
  if (index === -1) list.push(toSetting(result.profile));
  else list[index] = toSetting(result.profile);
  const edit: SettingsEdit = { profiles: list };
  if (original !== undefined && original !== name) Object.assign(edit, renameReferences(raw, original, name));
  return { ok: true, edit, profile: result.profile };
}

/** Pins and the active profile that named `from` now name `to` (undefined: they are cleared). */
function renameReferences(raw: RawSettings, from: string, to: string | undefined): Pick<SettingsEdit, "active" | "pins"> {
  const edit: Pick<SettingsEdit, "active" | "pins"> = {};
  const pins = rawPins(raw.pins);
  let changed = false;
  for (const [slug, name] of Object.entries(pins)) {
    if (!sameName(name, from)) continue;
    changed = true;
    if (to === undefined) delete pins[slug];
    else pins[slug] = to;
  }
  if (changed) edit.pins = pins;
  if (sameName(raw.active, from)) edit.active = to ?? "";
  return edit;
}

/** Removes a profile, its key, and the pins and active setting that named it. The default profile stays. */
export function deleteProfile(raw: RawSettings, state: ProfilesState, name: string): { ok: true; edit: SettingsEdit } | { ok: false; message: string } {
  if (name.toLowerCase() === DEFAULT_PROFILE) return { ok: false, message: l10n.t("the default profile is the kiln.provider.* settings; it cannot be deleted") };
  const list = rawList(raw.profiles);
  const index = indexOfName(list, name);
  if (index === -1) return { ok: false, message: l10n.t('there is no profile "{0}"', name) };
  list.splice(index, 1);
  const profile = findProfile(state, name);
  return {
    ok: true,
    edit: { profiles: list, ...renameReferences(raw, name, undefined), ...(profile ? { deleteSecret: secretNameOf(profile) } : {}) },
  };
}

/** Pins `profile` to mode `slug`, or removes the pin when `profile` is undefined. */
export function pinMode(raw: RawSettings, state: ProfilesState, slug: string, profile: string | undefined): { ok: true; edit: SettingsEdit } | { ok: false; message: string } {
  const pins = rawPins(raw.pins);
  if (profile === undefined) {
    delete pins[slug];
    return { ok: true, edit: { pins } };
  }
  const found = findProfile(state, profile);
  if (!found) return { ok: false, message: l10n.t('there is no profile "{0}"', profile) };
  pins[slug] = found.name;
  return { ok: true, edit: { pins } };
}
