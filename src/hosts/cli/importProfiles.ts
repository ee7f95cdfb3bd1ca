import { parse } from "jsonc-parser";
import { keyVariable } from "../../core/import/providerProfiles";
import { applyShape, NEW_FILE_SHAPE, readShaped } from "../../core/import/textShape";
import type { ImportedProfile, ProfilesOutcome, ProfilesPlan } from "../../core/import/types";
import { addProperty, replaceValue } from "../../core/mcp/jsonText";
import type { FileSystem } from "../../core/ports/fileSystem";
import { PROVIDER_OPTIONS } from "../../shared/providerCatalog";
import { parseConfigText } from "./configFile";

/**
 * `kiln import --settings FILE`: the profiles of a settings export go into the CLI's config file
 * (~/.kilocode/kiln/config.json, or KILN_CONFIG's), added by name like the import's other parts: a
 * name already there is kept, and a different profile under it reported. The file keeps its
 * comments, layout, line ends and final newline, is written once and atomically, and is made when
 * missing. Keys are never written: the profile's provider reads its own variable.
 */

const NEW_CONFIG = '{\n  "profiles": {}\n}\n';
/** What configFile.ts allows as a profile's name. */
const CLI_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON with keys sorted, to compare two entries regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

/** A name the config file accepts: "Claude (work)" becomes "Claude-work"; one with no letter or digit left, "imported". */
export function cliProfileName(name: string): string {
  if (CLI_NAME.test(name)) return name;
  const cleaned = name
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 64)
    .replace(/[-_.]+$/, "");
  return cleaned === "" ? "imported" : cleaned;
}

/** The profile as the config file writes it (configFile.ts's fields), in a stable order. */
export function configEntry(profile: ImportedProfile): Record<string, string> {
  const entry: Record<string, string> = { provider: profile.kind };
  if (profile.baseUrl !== undefined) entry.baseUrl = profile.baseUrl;
  if (profile.model !== undefined) entry.model = profile.model;
  for (const option of PROVIDER_OPTIONS) {
    const value = profile[option];
    if (value !== undefined) entry[option] = value;
  }
  return entry;
}

/** Where `kiln run --profile` finds the key for a profile of this kind, for the summary. */
export function keyAdvice(profile: ImportedProfile): string {
  if (profile.kind === "bedrock") return "AWS credentials from the usual chain (AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or awsProfile in the profile)";
  if (profile.kind === "vertex") return "Google Application Default Credentials, or keyFile in the profile";
  const variable = keyVariable(profile.kind);
  return `${variable ?? "KILN_API_KEY"} (or name another variable with apiKeyEnv in the profile)`;
}

/** The problems configFile.ts finds in this one profile, without the file's name before each. */
function entryProblems(name: string, entry: Record<string, string>, file: string): string[] {
  const { problems } = parseConfigText(JSON.stringify({ profiles: { [name]: entry } }), file, "user");
  return problems.map((p) => p.replace(`${file}: `, ""));
}

/** Adds one profile to the file's text, into its `profiles` (made when the file has none). */
function addProfile(text: string, data: Record<string, unknown>, name: string, entry: Record<string, string>): string {
  if (isRecord(data.profiles)) return addProperty(text, ["profiles"], name, entry);
  const profiles = { [name]: entry };
  return data.profiles === null ? replaceValue(text, ["profiles"], profiles) : addProperty(text, [], "profiles", profiles);
}

export async function applyProfiles(plan: ProfilesPlan, file: string, files: FileSystem, options: { dryRun: boolean }): Promise<ProfilesOutcome> {
  const result: ProfilesOutcome = { imported: [], alreadyThere: [], skipped: [...plan.skipped], file, settingsFile: plan.file, needKey: [], renamed: {} };
  if (plan.profiles.length === 0) return result;
  const current = await readShaped(files, file);
  let text = current && current.text.trim() ? current.text : NEW_CONFIG;
  if (current && current.text.trim()) {
    const { problems } = parseConfigText(current.text, file, "user");
    if (problems.length > 0) {
      for (const profile of plan.profiles) result.skipped.push({ name: profile.name, reason: `${problems[0]} (fix the file, then import again)` });
      return result;
    }
  }
  const data = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
  const existing = isRecord(data.profiles) ? data.profiles : {};
  /** Kiln name → the source name that took it in this import. */
  const taken = new Map<string, string>();
  let changed = false;
  for (const profile of plan.profiles) {
    const name = cliProfileName(profile.name);
    const earlier = taken.get(name);
    if (earlier !== undefined) {
      result.skipped.push({ name: profile.name, reason: `its name in Kiln would be "${name}", which "${earlier}" already takes` });
      continue;
    }
    taken.set(name, profile.name);
    if (name !== profile.name) result.renamed[profile.name] = name;
    const entry = configEntry(profile);
    if (Object.hasOwn(existing, name)) {
      if (canonical(existing[name]) === canonical(entry)) {
        result.alreadyThere.push(name);
        if (profile.needsKey) result.needKey.push(name);
      } else result.skipped.push({ name, reason: `${file} already has a different profile "${name}"; it was kept` });
      continue;
    }
    const problems = entryProblems(name, entry, file);
    if (problems.length > 0) {
      result.skipped.push({ name, reason: problems.join("; ") });
      continue;
    }
    text = addProfile(text, changed ? (parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>) : data, name, entry);
    changed = true;
    result.imported.push(name);
    if (profile.needsKey) result.needKey.push(name);
  }
  if (changed && !options.dryRun) await files.writeFile(file, applyShape(text, current?.shape ?? NEW_FILE_SHAPE));
  return result;
}
