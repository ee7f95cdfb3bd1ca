import * as l10n from "@vscode/l10n";
import { z } from "zod";
import { EMBEDDER_KINDS } from "../embedders";
import { APPROVE_WORDS, type ApproveWord } from "../approveWords";
import { AUTO_CONDENSE_PERCENT, BUDGET_MAX, OUTPUT_MAX_CHARS, READ_FILE_MAX_LINES, SHORTEN_RESULTS_AFTER, TOOL_RESULT_MAX_CHARS, type LimitBounds } from "../limits";
import { parseMessage, type ParsedMessage } from "./parse";
import { method, RequestEnvelopeSchema, type Done, type ResponseEnvelope } from "./requests";
import { IMPORT_SOURCE_KINDS } from "../historyEntry";
import type { ImportSourceView, ImportSummaryView, ProfileImportView } from "./agentImport";

export type { ImportPartView, ImportSourceView, ImportSummaryView, ProfileImportView } from "./agentImport";

/**
 * The settings panel's protocol, apart from the chat's: a different page with its own messages.
 * Webview -> host messages are parsed with these schemas where they enter the host; the deep checks
 * of a profile (URL, kind-specific fields, model overrides) are the host's (profiles.ts), which
 * answers with a field and a message the form shows.
 */
export const MAX_API_KEY = 4096;
const name = z.string().trim().min(1).max(64);
const slug = z.string().min(1).max(100);

const modelInfoInput = z
  .object({
    contextWindow: z.number().optional(),
    maxOutputTokens: z.number().optional(),
    inputPrice: z.number().optional(),
    outputPrice: z.number().optional(),
    cacheReadPrice: z.number().optional(),
    cacheWritePrice: z.number().optional(),
    supportsImages: z.boolean().optional(),
    supportsNativeTools: z.boolean().optional(),
    // Not in the form, but kept when a profile that has them (written by hand) is edited.
    tiers: z.array(z.record(z.string(), z.number())).max(20).optional(),
  })
  .strict();

export const ProfileFormSchema = z
  .object({
    name: z.string().max(200),
    kind: z.string().max(50),
    baseUrl: z.string().max(2_000),
    model: z.string().max(200),
    protocol: z.string().max(20),
    modelInfo: modelInfoInput.optional(),
    autoCondensePercent: z.number().optional(),
    region: z.string().max(500).optional(),
    awsProfile: z.string().max(500).optional(),
    project: z.string().max(500).optional(),
    keyFile: z.string().max(500).optional(),
    apiVersion: z.string().max(500).optional(),
    reasoningEffort: z.string().max(20).optional(),
    thinkingBudget: z.number().optional(),
  })
  .strict();
export type ProfileForm = z.infer<typeof ProfileFormSchema>;

/** A custom mode from the mode editor; the host checks it with the mode files' own rules (customModes.ts). */
const text = (max: number) => z.string().max(max);
const groupName = z.string().max(20);
export const ModeFormSchema = z
  .object({
    slug: text(100),
    name: text(200),
    roleDefinition: text(20_000),
    whenToUse: text(5_000).optional(),
    description: text(5_000).optional(),
    customInstructions: text(50_000).optional(),
    groups: z.array(z.union([groupName, z.tuple([groupName, z.object({ fileRegex: text(1_000).optional(), description: text(500).optional() }).strict()])])).max(10),
  })
  .strict();
export type ModeForm = z.infer<typeof ModeFormSchema>;
const modeScope = z.enum(["project", "global"]);

/**
 * Auto-approve changes, one field or several; each maps to a kiln.* setting. Checked by the host
 * with AutoApproveChangesSchema, which names the field at fault; nothing is written if one is bad.
 */
export const APPROVE_SETTING = {
  words: "autoApprove",
  enabled: "autoApproveEnabled",
  allowed: "autoApproveAllowedCommands",
  denied: "autoApproveDeniedCommands",
  refuseDenied: "autoApproveRefuseDeniedCommands",
  maxRequests: "autoApproveMaxRequests",
  maxCost: "autoApproveMaxCost",
} as const;
export type ApproveField = keyof typeof APPROVE_SETTING;
/**
 * Stands for the setting in a schema's message until the message is read (settingProblem): the page
 * names the box by its label, the host by its kiln.* key, and either way the message is one sentence.
 */
const SETTING = "\u{E000}";
/** A check's message, made when a value is checked (the display language's bundle is applied by then). */
const says = (message: () => string) => ({ error: message });

/**
 * What is wrong with a setting's value, as one sentence in the user's language about `subject`
 * (its label on the page, its kiln.* key in the host), from the first issue of a settings schema.
 */
export function settingProblem(issue: { message: string }, subject: string): string {
  // An issue without the slot is one the schemas give no words of their own (zod's English).
  return issue.message.includes(SETTING) ? issue.message.split(SETTING).join(subject) : l10n.t("{0}: {1}", subject, issue.message);
}

const MAX_PREFIXES = 500;
const MAX_PREFIX_CHARS = 500;
const prefixes = z
  .array(
    z
      .string()
      .trim()
      .min(
        1,
        says(() => l10n.t("{0} has an empty command prefix", SETTING)),
      )
      .max(
        MAX_PREFIX_CHARS,
        says(() => l10n.t("{0} has a command prefix longer than {1} characters", SETTING, MAX_PREFIX_CHARS)),
      ),
    says(() => l10n.t("{0} must be a list of command prefixes", SETTING)),
  )
  .max(
    MAX_PREFIXES,
    says(() => l10n.t("{0} holds at most {1} command prefixes", SETTING, MAX_PREFIXES)),
  )
  .transform((list) => [...new Set(list)]);
const flag = z.boolean(says(() => l10n.t("{0} must be true or false", SETTING)));
const atMost = (max: number) => says(() => l10n.t("{0} is at most {1}", SETTING, max));
/** A whole number from `min` (0 or 1) up; above `max` says the most. */
const wholeAtLeast = (min: 0 | 1, max: number) => {
  const message = says(() => (min === 0 ? l10n.t("{0} must be a whole number, 0 or more", SETTING) : l10n.t("{0} must be a whole number, 1 or more", SETTING)));
  return z.number(message).int(message).min(min, message).max(max, atMost(max));
};
/** Any number, 0 or more; above `max` says the most. */
const amount = (max: number, message: () => string) => z.number(says(message)).min(0, says(message)).max(max, atMost(max));
/** Any number from `min` to `max`, fractions too. */
const numberFrom = (min: number, max: number) => {
  const message = says(() => l10n.t("{0} must be a number from {1} to {2}", SETTING, min, max));
  return z.number(message).min(min, message).max(max, message);
};
const modeSlug = says(() => l10n.t("{0} must be a mode's slug", SETTING));
export const AutoApproveChangesSchema = z
  .object({
    words: z
      .array(
        z.enum(
          APPROVE_WORDS,
          says(() => l10n.t("{0} each must be one of {1}", SETTING, APPROVE_WORDS.join(", "))),
        ),
        says(() => l10n.t("{0} must be a list of categories", SETTING)),
      )
      .transform((list) => APPROVE_WORDS.filter((w) => list.includes(w))),
    enabled: flag,
    allowed: prefixes,
    denied: prefixes,
    refuseDenied: flag,
    maxRequests: wholeAtLeast(0, 1_000_000),
    maxCost: amount(1_000_000, () => l10n.t("{0} must be a number, 0 or more", SETTING)),
  })
  .partial()
  .strict();
export type AutoApproveChanges = z.output<typeof AutoApproveChangesSchema>;

/**
 * The "Limits and tools" section: task defaults, the limits on what reaches the model, apply_diff and
 * the browser. Checked like the auto-approve changes (OptionChangesSchema names the field at fault;
 * nothing is written if one is bad); the host also checks that the mode exists.
 */
export const OPTION_SETTING = {
  mode: "mode",
  maxRequests: "maxRequests",
  retries: "provider.retries",
  requireTodosDone: "requireTodosDone",
  readFileMaxLines: "context.readFileMaxLines",
  toolResultMaxChars: "context.toolResultMaxChars",
  outputMaxChars: "terminal.outputMaxChars",
  fuzzyThreshold: "applyDiff.fuzzyThreshold",
  browserPath: "browser.executablePath",
  autoCondensePercent: "context.autoCondensePercent",
  shortenResultsAfter: "context.shortenResultsAfter",
  budgetMaxTokens: "budget.maxTokens",
  budgetMaxCost: "budget.maxCost",
  budgetMaxInputTokens: "budget.maxInputTokensPerRequest",
} as const;
export type OptionField = keyof typeof OPTION_SETTING;

/** The values the agent uses when a setting is missing or invalid (agentSetup.ts, extension.ts). */
export const OPTION_DEFAULTS = {
  mode: "code",
  maxRequests: 100,
  retries: 3,
  requireTodosDone: false,
  readFileMaxLines: READ_FILE_MAX_LINES.default,
  toolResultMaxChars: TOOL_RESULT_MAX_CHARS.default,
  outputMaxChars: OUTPUT_MAX_CHARS.default,
  fuzzyThreshold: 1,
  browserPath: "",
  autoCondensePercent: AUTO_CONDENSE_PERCENT.default,
  shortenResultsAfter: SHORTEN_RESULTS_AFTER.default,
  budgetMaxTokens: 0,
  budgetMaxCost: 0,
  budgetMaxInputTokens: 0,
};
export const MAX_REQUESTS_LIMIT = 1000;
export const MAX_RETRIES = 10;

const wholeNumber = (min: number, max: number) => {
  const message = says(() => l10n.t("{0} must be a whole number from {1} to {2}", SETTING, min, max));
  return z.number(message).int(message).min(min, message).max(max, message);
};
const bounded = (bounds: LimitBounds) => wholeNumber(bounds.min, bounds.max);
export const OptionChangesSchema = z
  .object({
    mode: z.string(modeSlug).trim().min(1, modeSlug).max(100, modeSlug),
    maxRequests: wholeAtLeast(1, MAX_REQUESTS_LIMIT),
    retries: wholeNumber(0, MAX_RETRIES),
    requireTodosDone: flag,
    readFileMaxLines: bounded(READ_FILE_MAX_LINES),
    toolResultMaxChars: bounded(TOOL_RESULT_MAX_CHARS),
    outputMaxChars: bounded(OUTPUT_MAX_CHARS),
    fuzzyThreshold: numberFrom(0.8, 1),
    browserPath: z
      .string(says(() => l10n.t("{0} must be a path (empty: found automatically)", SETTING)))
      .trim()
      .max(
        4_096,
        says(() => l10n.t("{0} is at most {1} characters", SETTING, 4_096)),
      ),
    autoCondensePercent: bounded(AUTO_CONDENSE_PERCENT),
    shortenResultsAfter: bounded(SHORTEN_RESULTS_AFTER),
    budgetMaxTokens: wholeNumber(0, BUDGET_MAX),
    budgetMaxCost: amount(BUDGET_MAX, () => l10n.t("{0} must be a number, 0 or more (USD)", SETTING)),
    budgetMaxInputTokens: wholeNumber(0, BUDGET_MAX),
  })
  .partial()
  .strict();
export type OptionChanges = z.output<typeof OptionChangesSchema>;

/** `<scope>:<path relative to the scope's root>` (core/rules/loadRules.ts). */
const ruleId = z
  .string()
  .regex(/^(global|project):./, "must be a rule id such as project:.kilocode/rules/style.md")
  .max(2_000);

/** `<scope>:<skill folder relative to the scope's root>` (core/skills/skills.ts). */
const skillId = z
  .string()
  .regex(/^(global|project):./, "must be a skill id such as project:.kilocode/skills/release-notes")
  .max(2_000);

export const SettingsToHostSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("settings/ready") }).strict(),
  z.object({ type: z.literal("settings/openAutoApprove") }).strict(),
  /** Opens the project's .kilocodemodes (made with a commented example if missing) or the global modes file. */
  z.object({ type: z.literal("settings/editModes"), scope: z.enum(["project", "global"]) }).strict(),
  /** Opens a listed rule file; the host opens only ids its loader found. */
  z.object({ type: z.literal("settings/openRule"), id: ruleId }).strict(),
  /** Opens a listed skill's SKILL.md; the host opens only ids its loader found. */
  z.object({ type: z.literal("settings/openSkill"), id: skillId }).strict(),
  /** A request that expects an answer: its method and params are in SETTINGS_REQUESTS (requests.ts). */
  RequestEnvelopeSchema,
]);
export type SettingsToHost = z.infer<typeof SettingsToHostSchema>;

/** One model in the profile editor's picker; window and limits absent when neither the provider nor Kiln knows them. */
export interface ModelRowView {
  id: string;
  name?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** USD per million tokens; absent: unknown. */
  inputPrice?: number;
  outputPrice?: number;
  tools: boolean;
  vision: boolean;
}

/** The picker's list: from the provider now, from the host's cache of it, or Kiln's table where the provider lists none. */
export interface ModelListAnswer {
  models: ModelRowView[];
  source: "live" | "cache" | "table";
}

/** Each answers a line for the status bar, or fails naming the form field it refuses (requests.ts). */
/** The settings page's embedder form (settings/setEmbedder). */
export const EmbedderFormSchema = z
  .object({
    kind: z.enum(["none", ...EMBEDDER_KINDS]),
    model: z.string().max(200),
    baseUrl: z.string().max(2000),
    region: z.string().max(50),
    key: z.string().max(MAX_API_KEY).optional(),
  })
  .strict();
export type EmbedderForm = z.infer<typeof EmbedderFormSchema>;

const settingsRequest = method<Done>();
/** The settings page's requests: the host checks the params against these schemas. */
export const SETTINGS_REQUESTS = {
  /** Creates a profile (no `original`) or replaces the one named `original`. */
  "settings/saveProfile": settingsRequest(z.object({ original: name.optional(), profile: ProfileFormSchema }).strict()),
  "settings/deleteProfile": settingsRequest(z.object({ name }).strict()),
  /**
   * The models of the provider the form is set to, for the model picker; the key is the profile's
   * (`original`) when the form keeps its kind, else the provider's stored or environment key.
   */
  "settings/listModels": method<ModelListAnswer>()(z.object({ original: name.optional(), profile: ProfileFormSchema, refresh: z.boolean().optional() }).strict()),
  /** The key goes to SecretStorage; "" removes it. It is never sent back. */
  "settings/setKey": settingsRequest(z.object({ name, key: z.string().max(MAX_API_KEY) }).strict()),
  "settings/setActive": settingsRequest(z.object({ name }).strict()),
  /** Pins a profile to a mode; null removes the pin. */
  "settings/pinMode": settingsRequest(z.object({ mode: slug, profile: name.nullable() }).strict()),
  /** The values are checked by the host (AutoApproveChangesSchema), which names a bad field in its answer. */
  "settings/setAutoApprove": settingsRequest(z.object({ changes: z.record(z.string().max(50), z.unknown()) }).strict()),
  /** Checked by the host (OptionChangesSchema and the list of modes), which names a bad field in its answer. */
  "settings/setOptions": settingsRequest(z.object({ changes: z.record(z.string().max(50), z.unknown()) }).strict()),
  /** Creates a custom mode in the scope's file (no `original`) or replaces the one with slug `original`. */
  "settings/saveMode": settingsRequest(z.object({ scope: modeScope, original: slug.optional(), mode: ModeFormSchema }).strict()),
  "settings/deleteMode": settingsRequest(z.object({ scope: modeScope, slug }).strict()),
  "settings/exportMode": settingsRequest(z.object({ slug }).strict()),
  /** Turns a rule file (by its id, RuleView.id) on or off: kiln.rules.disabled. */
  "settings/setRuleEnabled": settingsRequest(z.object({ id: ruleId, enabled: z.boolean() }).strict()),
  /** Turns a skill (by its id, SkillView.id) on or off: kiln.skills.disabled. */
  "settings/setSkillEnabled": settingsRequest(z.object({ id: skillId, enabled: z.boolean() }).strict()),
  /** Creates .kilocode/rules/<name>.md with a stub; the host checks the name (ruleName.ts). */
  "settings/newRule": settingsRequest(z.object({ name: z.string().max(200) }).strict()),
  /** Turns the codebase index on or off for this workspace (kiln.index.enabled, workspace value). */
  "settings/setIndexEnabled": settingsRequest(z.object({ enabled: z.boolean() }).strict()),
  /** Indexes the workspace again from nothing; answers once it has started. */
  "settings/rebuildIndex": settingsRequest(z.object({}).strict()),
  /** Deletes the saved index and turns indexing off for this workspace. */
  "settings/deleteIndex": settingsRequest(z.object({}).strict()),
  /**
   * The embedder for the index's vectors (kiln.index.embedder*, user settings); the host checks it
   * and names a bad field. The key goes to SecretStorage: absent keeps the stored one, "" removes it.
   */
  "settings/setEmbedder": settingsRequest(EmbedderFormSchema),
  /**
   * What an import from another agent (one of SettingsState.imports) would bring over (`dryRun`),
   * or brings over; the host reads the source again each time and only from the folder it detected.
   */
  "settings/importFrom": method<ImportSummaryView>()(z.object({ kind: z.enum(IMPORT_SOURCE_KINDS), dryRun: z.boolean() }).strict()),
  /** Asks the user for a Roo, Kilo or Zoo settings export (a file dialog) and imports its provider profiles; undefined when none was picked. */
  "settings/importSettingsFile": method<ProfileImportView | undefined>()(z.object({}).strict()),
};
export type SettingsRequests = typeof SETTINGS_REQUESTS;
export type SettingsMethod = keyof SettingsRequests;

export interface ProfileView {
  name: string;
  kind: string;
  baseUrl: string;
  model: string;
  protocol: string;
  modelInfo?: Record<string, unknown>;
  /** Its own auto-condense threshold, in percent of the window. */
  autoCondensePercent?: number;
  /** The provider's own settings (Bedrock's region, Vertex's project…), where it has them. */
  region?: string;
  awsProfile?: string;
  project?: string;
  keyFile?: string;
  apiVersion?: string;
  /** How hard the model reasons (src/shared/reasoning.ts): an effort or a thinking budget, or neither. */
  reasoningEffort?: string;
  thinkingBudget?: number;
  /** "legacy": the kiln.provider.* settings (the default profile). */
  source: "legacy" | "settings";
  /** Whether a key is stored; the key itself never leaves the host. */
  hasKey: boolean;
}

export type ModeGroupView = string | [string, { fileRegex?: string; description?: string }];

export interface ModeView {
  slug: string;
  /** The name in the mode's file (the editor starts from it). */
  name: string;
  /** The name as the page shows it: a built-in's in the user's language; absent, `name`. */
  label?: string;
  /** "built-in", or the file the custom mode comes from. */
  source: string;
  /** Which file holds it: the project's .kilocodemodes, the global file, or none (built in). */
  scope: "built-in" | "project" | "global";
  /** A custom mode with a built-in's slug: deleting it brings the built-in back. */
  overridesBuiltIn: boolean;
  roleDefinition: string;
  whenToUse?: string;
  description?: string;
  customInstructions?: string;
  groups: ModeGroupView[];
  pinnedProfile?: string;
}

/** The auto-approve settings as they are (an invalid value shows as its default, as the agent reads it). */
export interface AutoApproveView {
  words: ApproveWord[];
  enabled: boolean;
  allowed: string[];
  denied: string[];
  refuseDenied: boolean;
  maxRequests: number;
  maxCost: number;
  /** Fields whose setting has a workspace value: edits go there, since it hides the user value. */
  workspaceFields: ApproveField[];
}

/** The "Limits and tools" settings as the agent reads them (an invalid value shows as its default). */
export type OptionsView = typeof OPTION_DEFAULTS & {
  /** Fields whose setting has a workspace value: edits go there, since it hides the user value. */
  workspaceFields: OptionField[];
};

/** A rule file found by the loader, in prompt order; `path` is workspace-relative for project rules. */
export interface RuleView {
  id: string;
  scope: "global" | "project";
  /** Set for a mode's rules (rules-<mode>/); the others apply in every mode. */
  mode?: string;
  path: string;
  size: number;
  enabled: boolean;
}

export interface RulesView {
  files: RuleView[];
  /** The global rules folder, to say where global rules go. */
  globalDir: string;
}

/** A skill the loader found (a folder with SKILL.md); `path` is workspace-relative for project skills. */
export interface SkillView {
  id: string;
  name: string;
  description: string;
  scope: "global" | "project";
  path: string;
  enabled: boolean;
}

export interface SkillsView {
  skills: SkillView[];
  /** SKILL.md files that could not be loaded, and why; the other skills still work. */
  errors: string[];
  /** The global skills folder, to say where global skills go. */
  globalDir: string;
}

/**
 * The workspace's codebase index (codebase_search): whether it is on, where it stands, and what is
 * saved. Counts are absent where they do not apply (no progress before the walk has counted files).
 */
export interface CodeIndexView {
  /** kiln.index.enabled as the agent reads it. */
  enabled: boolean;
  state: "off" | "indexing" | "ready" | "failed";
  /** While indexing: files done of the files found. */
  filesDone?: number;
  filesTotal?: number;
  /** Once ready. */
  files?: number;
  chunks?: number;
  /** Why it failed. */
  message?: string;
  /** This session's index started from the one saved by an earlier session. */
  restored?: boolean;
  /** The saved index's size and time, where one is saved. */
  saved?: { bytes: number; savedAt: number };
  /** The embedder giving the chunks vectors (kind:model@url), and how many chunk texts have one. */
  embedder?: string;
  vectors?: number;
  /** Why the configured embedder gives no vectors (its settings, or its last answer). */
  embedderProblem?: string;
  /** The embedder's settings as the form shows them (the key only as whether one is stored). */
  embedderSettings?: Omit<EmbedderForm, "key"> & { hasKey: boolean };
  /** A team index (kiln.index.postgresUrl): the server, without its password, and the repository#branch it holds here. */
  team?: { server: string; scope: string; repository: string; branch: string };
}

export interface SettingsState {
  profiles: ProfileView[];
  active: string;
  modes: ModeView[];
  autoApprove: AutoApproveView;
  options: OptionsView;
  rules: RulesView;
  skills: SkillsView;
  /** Other agents' data found on this machine, to import. */
  imports: ImportSourceView[];
  /** Problems in kiln.profiles, kiln.modeProfiles and the mode files; the rest keeps working. */
  errors: string[];
  /** Whether a folder is open (the project's .kilocodemodes lives in it). */
  hasWorkspace: boolean;
  codeIndex: CodeIndexView;
}

/** The page's sections, in order: the navigation's links and what "open at" names. */
export const SETTINGS_SECTIONS = ["providers", "autoApprove", "options", "modes", "rules", "skills", "codeIndex", "import"] as const;
export const SettingsSectionSchema = z.enum(SETTINGS_SECTIONS);
export type SettingsSection = z.infer<typeof SettingsSectionSchema>;

export type HostToSettings =
  | { type: "settings/state"; state: SettingsState }
  /** Scroll to a section (Edit modes… in the chat's mode picker opens the page at the modes). */
  | { type: "settings/reveal"; section: SettingsSection }
  /** The answer to a request (SETTINGS_REQUESTS); `error.field` names the form field a refusal is about. */
  | ResponseEnvelope;

export type SettingsParseResult = ParsedMessage<SettingsToHost>;

export function parseSettingsMessage(raw: unknown): SettingsParseResult {
  return parseMessage(SettingsToHostSchema, raw, "settings");
}
