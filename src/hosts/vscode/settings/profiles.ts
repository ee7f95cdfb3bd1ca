/**
 * Provider profiles: named sets of provider settings (kind, endpoint, model, tool protocol, model
 * overrides). Pure (no `vscode` import), so validation and selection are unit-tested in plain Node;
 * profileStore.ts reads and writes them through VS Code settings and SecretStorage.
 */
import * as l10n from "@vscode/l10n";
import { z } from "zod";
import { resolveModelInfo } from "../../../core/llm/models";
import { apiKeySecretName, PROVIDER_KINDS, type ProviderKind } from "../../../core/llm/types";
import { FAMILY_OPTIONS, PROVIDER_OPTIONS, providerEntry, takesReasoning, type ProviderOption } from "../../../shared/providerCatalog";
import { isReasoningEffort, isThinkingBudget, REASONING_EFFORTS, reasoningOf, THINKING_BUDGET, type ReasoningSettings } from "../../../shared/reasoning";
import type { ToolProtocolSetting } from "../../../core/prompts/system";

/** The profile made of the `kiln.provider.*` settings; it always exists, so old setups keep working. */
export const DEFAULT_PROFILE = "default";
export const PROTOCOLS: readonly ToolProtocolSetting[] = ["xml", "native", "auto"];
export const MAX_PROFILE_NAME = 64;

/** Reasoning (effort or a thinking budget, src/shared/reasoning.ts) is part of a profile too. */
export interface Profile extends ReasoningSettings {
  /** Stable across renames: the key in SecretStorage is filed under it. */
  id: string;
  name: string;
  kind: ProviderKind;
  /** Empty: the provider's default endpoint. */
  baseUrl: string;
  /** Empty: the provider's default model. */
  model: string;
  protocol: ToolProtocolSetting;
  /** Corrections to the model table; checked field by field by the core. */
  modelInfo?: Record<string, unknown>;
  /** Condense at this share of the window while the profile is in use (kiln.context.autoCondensePercent otherwise). */
  autoCondensePercent?: number;
  /** The provider's own settings (Bedrock's region and AWS profile, Vertex's project, Azure's API version). */
  region?: string;
  awsProfile?: string;
  project?: string;
  keyFile?: string;
  apiVersion?: string;
  /** "legacy": the `kiln.provider.*` settings; "settings": an entry of `kiln.profiles`. */
  source: "legacy" | "settings";
}

/** A profile's provider options, only those set. */
export function providerOptionsOf(profile: Partial<Record<ProviderOption, string | undefined>>): Partial<Record<ProviderOption, string>> {
  return Object.fromEntries(PROVIDER_OPTIONS.flatMap((key) => (profile[key] ? [[key, profile[key]]] : []))) as Partial<Record<ProviderOption, string>>;
}

function isHttpUrl(value: string): boolean {
  return value === "" || /^https?:\/\/[^\s]+$/i.test(value);
}

/** A check's message, made when a value is checked (the display language's bundle is applied by then). */
const says = (message: () => string) => ({ error: message });
const percent = says(() => l10n.t("must be 0 to 100"));

const optionText = z
  .string()
  .trim()
  .max(500)
  .refine(
    (v) => !/[\u0000-\u001f]/.test(v),
    says(() => l10n.t("no control characters")),
  )
  .optional();

const nameSchema = z
  .string()
  .trim()
  .min(
    1,
    says(() => l10n.t("a profile needs a name")),
  )
  .max(
    MAX_PROFILE_NAME,
    says(() => l10n.t("at most {0} characters", MAX_PROFILE_NAME)),
  )
  // Names show in pickers and key `kiln.modeProfiles`; control characters would only confuse both.
  .refine(
    (name) => !/[\u0000-\u001f\u007f]/.test(name),
    says(() => l10n.t("no control characters")),
  );

/** What a profile looks like in `kiln.profiles` and in the settings form. */
export const ProfileInputSchema = z
  .object({
    id: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9-]{0,63}$/,
        says(() => l10n.t("lower-case letters, digits and dashes")),
      )
      .optional(),
    name: nameSchema,
    kind: z.enum(
      PROVIDER_KINDS,
      says(() => l10n.t("must be one of {0}", PROVIDER_KINDS.join(", "))),
    ),
    baseUrl: z
      .string()
      .trim()
      .max(2_000)
      .refine(
        isHttpUrl,
        says(() => l10n.t("must be an http(s) URL, or empty for the provider's default")),
      )
      .default(""),
    model: z.string().trim().max(200).default(""),
    protocol: z
      .enum(
        PROTOCOLS as [ToolProtocolSetting, ...ToolProtocolSetting[]],
        says(() => l10n.t("must be xml, native or auto")),
      )
      .default("xml"),
    modelInfo: z.record(z.string(), z.unknown()).optional(),
    autoCondensePercent: z
      .number(says(() => l10n.t("must be a number")))
      .int(says(() => l10n.t("must be a whole number")))
      .min(0, percent)
      .max(100, percent)
      .optional(),
    region: optionText,
    awsProfile: optionText,
    project: optionText,
    keyFile: optionText,
    apiVersion: optionText,
    reasoningEffort: z
      .enum(
        REASONING_EFFORTS,
        says(() => l10n.t("must be one of {0}", REASONING_EFFORTS.join(", "))),
      )
      .optional(),
    thinkingBudget: z
      .number(says(() => l10n.t("must be a number")))
      .int(says(() => l10n.t("must be a whole number")))
      .min(
        THINKING_BUDGET.min,
        says(() => l10n.t("must be {0} to {1} tokens", THINKING_BUDGET.min, THINKING_BUDGET.max)),
      )
      .max(
        THINKING_BUDGET.max,
        says(() => l10n.t("must be {0} to {1} tokens", THINKING_BUDGET.min, THINKING_BUDGET.max)),
      )
      .optional(),
  })
  .strict()
  .superRefine((profile, ctx) => {
    // createProvider would refuse these at the first request; saying so when saving is kinder.
    const entry = providerEntry(profile.kind);
    if (profile.kind === "openai-compatible" && profile.baseUrl === "") {
      ctx.addIssue({ code: "custom", path: ["baseUrl"], message: l10n.t("openai-compatible needs a base URL (e.g. http://localhost:11434/v1)") });
    } else if (entry.needsBaseUrl && profile.baseUrl === "") {
      ctx.addIssue({ code: "custom", path: ["baseUrl"], message: l10n.t("{0} needs a base URL", entry.label) });
    }
    if (profile.kind === "openai-compatible" && profile.model === "") {
      ctx.addIssue({ code: "custom", path: ["model"], message: l10n.t("openai-compatible needs a model id") });
    } else if (!entry.defaultModel && profile.model === "") {
      ctx.addIssue({
        code: "custom",
        path: ["model"],
        message: entry.family === "azure" ? l10n.t("Azure OpenAI needs the deployment's name as the model") : l10n.t("{0} needs a model id", entry.label),
      });
    }
    for (const option of PROVIDER_OPTIONS) {
      if (profile[option] && !FAMILY_OPTIONS[entry.family].includes(option)) {
        ctx.addIssue({ code: "custom", path: [option], message: l10n.t("{0} has no such setting", entry.label) });
      }
    }
    if (profile.reasoningEffort && profile.thinkingBudget !== undefined) {
      ctx.addIssue({ code: "custom", path: ["thinkingBudget"], message: l10n.t("give a reasoning effort or a thinking budget, not both") });
    }
    if ((profile.reasoningEffort || profile.thinkingBudget !== undefined) && !takesReasoning(entry)) {
      ctx.addIssue({ code: "custom", path: ["reasoningEffort"], message: l10n.t("{0} takes no reasoning setting: its reasoning models think on their own", entry.label) });
    }
    if (profile.modelInfo) {
      const { errors } = resolveModelInfo(profile.kind, profile.model, profile.modelInfo);
      if (errors.length > 0) ctx.addIssue({ code: "custom", path: ["modelInfo"], message: errors.join("; ") });
    }
  });
export type ProfileInput = z.input<typeof ProfileInputSchema>;

export type ValidationResult = { ok: true; profile: Profile } | { ok: false; field: string; message: string };

/**
 * One profile from settings or the form; the first problem is named with its field. `asDefault`
 * checks the fields of the "default" profile, whose name is fixed.
 */
export function validateProfile(raw: unknown, asDefault = false): ValidationResult {
  if (typeof raw === "object" && raw !== null && ("apiKey" in raw || "key" in raw)) {
    return { ok: false, field: "apiKey", message: l10n.t("keys are never kept in settings; set it in Kiln's settings view (it goes to the secret storage)") };
  }
  const parsed = ProfileInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "profile";
    const message = issue.code === "unrecognized_keys" ? l10n.t("unknown field {0}", issue.keys.join(", ")) : issue.message;
    return { ok: false, field, message };
  }
  const data = parsed.data;
  if (!asDefault && data.name.toLowerCase() === DEFAULT_PROFILE) {
    return { ok: false, field: "name", message: l10n.t('"{0}" is the profile of the kiln.provider.* settings; choose another name', DEFAULT_PROFILE) };
  }
  return {
    ok: true,
    profile: {
      id: asDefault ? DEFAULT_PROFILE : (data.id ?? idFromName(data.name)),
      name: data.name,
      kind: data.kind,
      baseUrl: data.baseUrl,
      model: data.model,
      protocol: data.protocol,
      ...(data.modelInfo ? { modelInfo: data.modelInfo } : {}),
      ...(data.autoCondensePercent !== undefined && !asDefault ? { autoCondensePercent: data.autoCondensePercent } : {}),
      ...providerOptionsOf(data),
      ...reasoningOf(data),
      source: asDefault ? "legacy" : "settings",
    },
  };
}

/** A profile written by hand without an id gets one from its name (its key follows the name then). */
export function idFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  // The hash keeps "GPT 4" and "gpt-4" (same slug) from sharing a key.
  return `${slug || "p"}-${hash.toString(36)}`;
}

export function newProfileId(random: () => number = Math.random): string {
  return `p-${Date.now().toString(36)}-${Math.floor(random() * 36 ** 6).toString(36)}`;
}

export interface ParsedProfiles {
  profiles: Profile[];
  /** One line per skipped profile, naming it and its field; the other profiles keep working. */
  errors: string[];
}

/** `kiln.profiles` as the user wrote it: bad entries are reported and skipped, never fatal. */
export function parseProfiles(raw: unknown): ParsedProfiles {
  if (raw === undefined || raw === null) return { profiles: [], errors: [] };
  if (!Array.isArray(raw)) return { profiles: [], errors: ["kiln.profiles must be a list of profiles"] };
  const profiles: Profile[] = [];
  const errors: string[] = [];
  raw.forEach((entry, index) => {
    const name = typeof (entry as { name?: unknown })?.name === "string" ? (entry as { name: string }).name : "";
    const label = name ? `profile "${name}"` : `profile #${index + 1}`;
    const result = validateProfile(entry);
    if (!result.ok) {
      errors.push(`kiln.profiles: ${label}: ${result.field}: ${result.message}`);
      return;
    }
    const clash = profiles.find((p) => p.name.toLowerCase() === result.profile.name.toLowerCase() || p.id === result.profile.id);
    if (clash) {
      errors.push(`kiln.profiles: ${label}: its ${clash.id === result.profile.id ? "id" : "name"} is used twice; the first one is kept`);
      return;
    }
    profiles.push(result.profile);
  });
  return { profiles, errors };
}

export interface LegacySettings extends Partial<Record<ProviderOption | keyof ReasoningSettings, unknown>> {
  kind: unknown;
  baseUrl: unknown;
  model: unknown;
  protocol: unknown;
  modelInfo: unknown;
}

/** The `kiln.provider.*` settings as the "default" profile; a bad kind makes it unusable, and says why. */
export function legacyProfile(settings: LegacySettings): { profile: Profile } | { error: string } {
  const kind = settings.kind;
  if (typeof kind !== "string" || !PROVIDER_KINDS.includes(kind as ProviderKind)) {
    return { error: `kiln.provider.kind is "${String(kind)}"; it must be one of ${PROVIDER_KINDS.join(", ")}.` };
  }
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const protocol = PROTOCOLS.includes(settings.protocol as ToolProtocolSetting) ? (settings.protocol as ToolProtocolSetting) : "xml";
  const modelInfo = typeof settings.modelInfo === "object" && settings.modelInfo !== null ? (settings.modelInfo as Record<string, unknown>) : undefined;
  return {
    profile: {
      id: DEFAULT_PROFILE,
      name: DEFAULT_PROFILE,
      kind: kind as ProviderKind,
      baseUrl: text(settings.baseUrl),
      model: text(settings.model),
      protocol,
      ...(modelInfo && Object.keys(modelInfo).length > 0 ? { modelInfo } : {}),
      // Only what the provider reads, and only values that make sense: a stray one is left out, not fatal.
      ...Object.fromEntries(FAMILY_OPTIONS[providerEntry(kind as ProviderKind).family].flatMap((o) => (typeof settings[o] === "string" && settings[o].trim() ? [[o, settings[o].trim()]] : []))),
      ...(isReasoningEffort(settings.reasoningEffort) ? { reasoningEffort: settings.reasoningEffort } : isThinkingBudget(settings.thinkingBudget) ? { thinkingBudget: settings.thinkingBudget } : {}),
      source: "legacy",
    },
  };
}

/** `kiln.modeProfiles`: { modeSlug: profileName }; entries that are not strings are reported. */
export function parseModeProfiles(raw: unknown): { pins: Record<string, string>; errors: string[] } {
  if (raw === undefined || raw === null) return { pins: {}, errors: [] };
  if (typeof raw !== "object" || Array.isArray(raw)) return { pins: {}, errors: ["kiln.modeProfiles must be an object { modeSlug: profileName }"] };
  const pins: Record<string, string> = {};
  const errors: string[] = [];
  for (const [slug, name] of Object.entries(raw)) {
    if (typeof name === "string" && name.trim() !== "") pins[slug] = name.trim();
    else errors.push(`kiln.modeProfiles.${slug}: expected a profile name`);
  }
  return { pins, errors };
}

export interface ProfilesState {
  /** "default" (when the legacy settings are valid) first, then `kiln.profiles` in order. */
  profiles: Profile[];
  /** The name of the active profile as set; `activeProfile()` resolves it. */
  active: string;
  pins: Record<string, string>;
  errors: string[];
}

export function buildState(legacy: ReturnType<typeof legacyProfile>, rawProfiles: unknown, active: unknown, rawPins: unknown): ProfilesState {
  const parsed = parseProfiles(rawProfiles);
  const pins = parseModeProfiles(rawPins);
  const errors = ["error" in legacy ? legacy.error : undefined, ...parsed.errors, ...pins.errors].filter((e): e is string => e !== undefined);
  const profiles = "profile" in legacy ? [legacy.profile, ...parsed.profiles] : parsed.profiles;
  const activeName = typeof active === "string" && active.trim() !== "" ? active.trim() : DEFAULT_PROFILE;
  return { profiles, active: activeName, pins: pins.pins, errors };
}

export function findProfile(state: ProfilesState, name: string): Profile | undefined {
  const lower = name.toLowerCase();
  return state.profiles.find((p) => p.name.toLowerCase() === lower);
}

export type Choice = { profile: Profile; warning?: string } | { profile: undefined; warning: string };

/**
 * Which profile a request uses: the user's pick in this task's mode, else the mode's pinned
 * profile, else the active one, else "default". A name that no longer exists is passed over with
 * a warning rather than failing the request.
 */
export function chooseProfile(state: ProfilesState, mode: string | undefined, picked?: string): Choice {
  const warnings: string[] = [];
  const candidates: [string | undefined, string][] = [
    [picked, "the profile picked in the chat"],
    [mode === undefined ? undefined : state.pins[mode], `the profile pinned to mode ${mode ?? ""} (kiln.modeProfiles)`],
    [state.active, "the active profile (kiln.activeProfile)"],
    [DEFAULT_PROFILE, "the default profile"],
  ];
  for (const [name, what] of candidates) {
    if (name === undefined) continue;
    const profile = findProfile(state, name);
    if (profile) return warnings.length > 0 ? { profile, warning: warnings.join("; ") } : { profile };
    warnings.push(`${what} "${name}" does not exist`);
  }
  const fallback = state.profiles[0];
  if (fallback) return { profile: fallback, warning: warnings.join("; ") };
  return { profile: undefined, warning: `no usable provider profile: ${state.errors.join("; ") || warnings.join("; ")}` };
}

/** Where a profile's key lives in SecretStorage: the default profile keeps the per-kind key of `kiln.setApiKey`. */
export function secretNameOf(profile: Pick<Profile, "id" | "kind" | "source">): string {
  return profile.source === "legacy" ? apiKeySecretName(profile.kind) : `kiln.apiKey.profile.${profile.id}`;
}

/** The `kiln.profiles` entry for a profile: what the user would write by hand, no source, no key. */
export function toSetting(profile: Profile): Record<string, unknown> {
  const { source: _source, ...rest } = profile;
  const entry: Record<string, unknown> = { ...rest };
  if (entry.baseUrl === "") delete entry.baseUrl;
  if (entry.model === "") delete entry.model;
  return entry;
}
