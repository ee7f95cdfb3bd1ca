import * as l10n from "@vscode/l10n";
import { isMap, isSeq, parseDocument, type Document } from "yaml";
import { modeSchema } from "./customModes";
import { BUILTIN_MODES, type GroupEntry, type Mode } from "./modes";

/**
 * Edits of one modes file (`.kilocodemodes` or the global file) as text in, text out: a mode is
 * added, replaced or removed and every other mode, key and (in YAML) comment is kept. A JSON file
 * stays JSON, a YAML file stays YAML. The caller writes the text; nothing here touches the disk.
 */

/** The fields of a mode as the settings form sends them; empty optional texts are left out. */
export interface ModeInput {
  slug: string;
  name: string;
  roleDefinition: string;
  whenToUse?: string;
  description?: string;
  customInstructions?: string;
  groups: GroupEntry[];
}

export type ModeEdit = { ok: true; text: string; mode: Mode } | { ok: false; field?: string; message: string };
export type ModeRemoval = { ok: true; text: string } | { ok: false; field?: string; message: string };

const OPTIONAL = ["whenToUse", "description", "customInstructions"] as const;
const ORDER = ["slug", "name", "roleDefinition", "whenToUse", "description", "customInstructions", "groups"] as const;

function isJson(text: string): boolean {
  return text.trimStart().startsWith("{");
}

/** The form field a validation issue is about: `fileRegex` for an edit group's regex, else the top key. */
function fieldOf(path: readonly PropertyKey[]): string {
  if (path[0] === "groups" && path.includes("fileRegex")) return "fileRegex";
  return typeof path[0] === "string" ? path[0] : "mode";
}

/** Trims the texts, drops empty optional ones, and checks the entry with the loader's own rules. */
export function checkMode(input: ModeInput, file: string): { ok: true; entry: Record<string, unknown> } | { ok: false; field: string; message: string } {
  const entry: Record<string, unknown> = {
    slug: input.slug.trim(),
    name: input.name.trim(),
    roleDefinition: input.roleDefinition.trim(),
  };
  for (const key of OPTIONAL) {
    const value = input[key]?.trim();
    if (value) entry[key] = value;
  }
  entry.groups = input.groups.map((g) => {
    if (typeof g === "string") return g;
    const [name, options] = g;
    const kept = Object.fromEntries(Object.entries(options).filter(([, v]) => typeof v === "string" && v.trim() !== ""));
    return Object.keys(kept).length > 0 ? [name, kept] : name;
  });
  const label = entry.slug ? `mode "${entry.slug as string}"` : "new mode";
  const required = (["slug", "name", "roleDefinition"] as const).find((key) => entry[key] === "");
  if (required) return { ok: false, field: required, message: l10n.t("{0}: {1}: {2} is required", file, label, required) };
  const groupNames = (entry.groups as GroupEntry[]).map((g) => (typeof g === "string" ? g : g[0]));
  const twice = groupNames.find((g, i) => groupNames.indexOf(g) !== i);
  if (twice) return { ok: false, field: "groups", message: l10n.t("{0}: {1}: groups: {2} is listed twice", file, label, twice) };
  const parsed = modeSchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, field: fieldOf(issue.path), message: `${file}: ${label}: ${issue.path.join(".") || "entry"}: ${issue.message}` };
  }
  return { ok: true, entry };
}

interface Loaded {
  list: unknown[];
  /** Writes the new list back in the file's own format. */
  render(list: unknown[], changed?: { index: number; entry: Record<string, unknown> | undefined }): string;
}

function load(text: string, file: string): Loaded | { error: string } {
  if (isJson(text)) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      return { error: l10n.t("{0}: not valid JSON, fix it by hand first: {1}", file, err instanceof Error ? err.message : String(err)) };
    }
    if (typeof data !== "object" || data === null || Array.isArray(data)) return { error: l10n.t("{0}: expected an object with customModes", file) };
    const list = (data as { customModes?: unknown }).customModes ?? [];
    if (!Array.isArray(list)) return { error: l10n.t("{0}: customModes must be a list of modes", file) };
    return { list, render: (next) => `${JSON.stringify({ ...(data as object), customModes: next }, null, 2)}\n` };
  }
  const doc: Document = parseDocument(text);
  if (doc.errors.length > 0) return { error: l10n.t("{0}: not valid YAML, fix it by hand first: {1}", file, doc.errors[0]!.message.split("\n")[0]!) };
  if (doc.contents !== null && !isMap(doc.contents)) return { error: l10n.t("{0}: expected a mapping with customModes", file) };
  const node = doc.get("customModes", true);
  if (node !== undefined && node !== null && !isSeq(node)) return { error: l10n.t("{0}: customModes must be a list of modes", file) };
  const list = (doc.toJS() as { customModes?: unknown[] } | null)?.customModes ?? [];
  return {
    list,
    render: (_next, changed) => {
      if (!changed) return doc.toString();
      let seq = doc.get("customModes", true);
      if (!isSeq(seq)) {
        doc.set("customModes", doc.createNode([]));
        seq = doc.get("customModes", true);
      }
      if (!isSeq(seq)) throw new Error("customModes could not be made a list");
      // A `customModes: []` (the example file) becomes a block list once it has modes.
      seq.flow = false;
      if (changed.entry === undefined) seq.items.splice(changed.index, 1);
      else if (changed.index >= seq.items.length) seq.items.push(doc.createNode(changed.entry));
      else seq.items[changed.index] = doc.createNode(changed.entry);
      return doc.toString();
    },
  };
}

function slugAt(entry: unknown): string | undefined {
  const slug = (entry as { slug?: unknown } | null)?.slug;
  return typeof slug === "string" ? slug : undefined;
}

/** Keys in the usual order, then any others the entry had (iconName, source… written by other tools). */
function ordered(entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ORDER) if (entry[key] !== undefined) out[key] = entry[key];
  for (const [key, value] of Object.entries(entry)) if (!(key in out)) out[key] = value;
  return out;
}

/**
 * Adds a mode (no `original`) or replaces the one with slug `original`, which may be renamed.
 * `text` is the file's content, undefined when it does not exist (a new file is YAML).
 */
export function upsertMode(text: string | undefined, file: string, original: string | undefined, input: ModeInput): ModeEdit {
  const checked = checkMode(input, file);
  if (!checked.ok) return checked;
  const loaded = load(text ?? "", file);
  if ("error" in loaded) return { ok: false, message: loaded.error };
  const slug = checked.entry.slug as string;
  const index = original === undefined ? loaded.list.length : loaded.list.findIndex((e) => slugAt(e) === original);
  if (index < 0) return { ok: false, field: "slug", message: l10n.t('{0}: there is no mode "{1}" to change', file, original ?? "") };
  const clash = loaded.list.findIndex((e, i) => i !== index && slugAt(e) === slug);
  if (clash >= 0) return { ok: false, field: "slug", message: l10n.t('{0}: mode "{1}": slug: another mode in this file has it', file, slug) };
  // Fields the form does not show are kept; optional texts emptied in the form are removed.
  const previous = index < loaded.list.length && typeof loaded.list[index] === "object" ? (loaded.list[index] as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...previous };
  for (const key of OPTIONAL) delete merged[key];
  const entry = ordered({ ...merged, ...checked.entry });
  const next = [...loaded.list];
  next[index] = entry;
  const mode: Mode = { ...(checked.entry as unknown as Mode), source: file };
  return { ok: true, text: loaded.render(next, { index, entry }), mode };
}

/** Removes the mode with `slug` from the file; a built-in that is not overridden here cannot be removed. */
export function removeMode(text: string | undefined, file: string, slug: string): ModeRemoval {
  const loaded = load(text ?? "", file);
  if ("error" in loaded) return { ok: false, message: loaded.error };
  const index = loaded.list.findIndex((e) => slugAt(e) === slug);
  if (index < 0) {
    if (BUILTIN_MODES.some((m) => m.slug === slug)) return { ok: false, message: l10n.t('mode "{0}" is built in and cannot be deleted; a custom mode with its slug overrides it', slug) };
    return { ok: false, message: l10n.t('{0}: there is no mode "{1}"', file, slug) };
  }
  const next = loaded.list.filter((_, i) => i !== index);
  return { ok: true, text: loaded.render(next, { index, entry: undefined }) };
}
