import { z } from "zod";
import { MAX_TOOL_CALLS, REPLY_MAX_CHARS, TOOL_ARG_MAX_CHARS } from "../../../core/agent/replyLimits";
import { EMBEDDER_KINDS } from "../../../core/codeIndex/embedder";
import { DEFAULT_ALLOWED_COMMANDS, DEFAULT_DENIED_COMMANDS } from "../../../core/approval/settings";
import type { TaskBudget } from "../../../core/context/budget";
import { CONDENSE_PERCENT, DEFAULT_CONTEXT_SETTINGS, SHORTEN_AFTER } from "../../../core/context/settings";
import { FIRST_REPLY_TIMEOUT_SECONDS, IDLE_TIMEOUT_SECONDS } from "../../../core/llm/requestWatch";
import type { Logger } from "../../../core/ports";
import type { ToolProtocolSetting } from "../../../core/prompts/system";
import { DEFAULT_PROMPTS, PROMPT_KINDS, type PromptKind } from "../../../core/prompts/templates";
import { APPROVE_WORDS } from "../../../shared/approveWords";
import { OUTPUT_MAX_CHARS, READ_FILE_MAX_LINES, TOOL_RESULT_MAX_CHARS, type LimitBounds } from "../../../shared/limits";
import { APPROVE_SETTING, MAX_REQUESTS_LIMIT, MAX_RETRIES, OPTION_DEFAULTS, OPTION_SETTING, type ApproveField, type OptionField } from "../../../shared/protocol/settings";
import { PROTOCOLS } from "./profiles";

/**
 * Every `kiln.*` setting the extension reads: its key, what a valid value is, and the value used
 * when it is missing or wrong. Settings are user input: a wrong value is logged (once per key and
 * value, not at every read) and its default applies; it is never fatal. This file is the pure
 * part, testable without VS Code; kilnSettings.ts reads the values from the editor.
 */
export interface Setting<T> {
  /** Under "kiln.", as in OPTION_SETTING: "context.readFileMaxLines". */
  readonly key: string;
  readonly schema: z.ZodType<T>;
  readonly fallback: T;
  /** How the log names the fallback where its JSON would be a wall of text (a prompt template). */
  readonly fallbackText?: string;
}

export type Section = Readonly<Record<string, Setting<unknown>>>;
export type SectionValues<S extends Section> = { -readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

// The schema alone gives T: a default such as ["read"] must not widen it to string[].
const setting = <T>(key: string, schema: z.ZodType<T>, fallback: NoInfer<T>, fallbackText?: string): Setting<T> => ({ key, schema, fallback, ...(fallbackText ? { fallbackText } : {}) });

/**
 * Read as set and checked elsewhere in depth (profiles.ts, the core's model overrides), which name
 * the field at fault better than a schema here could; `fallback` is what an unset value reads as.
 */
const unchecked = (key: string, fallback?: unknown): Setting<unknown> => setting(key, z.unknown(), fallback);

const flag = (key: string, fallback: boolean) => setting(key, z.boolean(), fallback);
const text = (key: string, fallback = "") => setting(key, z.string(), fallback);
const strings = (key: string, fallback: readonly string[]) => setting(key, z.array(z.string()), [...fallback]);
const whole = (key: string, min: number, max: number, fallback: number) => setting(key, z.number().int().min(min).max(max), fallback);
const bounded = (key: string, bounds: LimitBounds) => whole(key, bounds.min, bounds.max, bounds.default);
/** Any number in the range, fractions too (the checkpoint caps, the fuzzy threshold). */
const within = (key: string, min: number, max: number, fallback: number) => setting(key, z.number().min(min).max(max), fallback);
/** 0 or more; for the auto-approve and budget limits, where 0 means none. */
const limit = (key: string) => setting(key, z.number().min(0), 0);

const provider = {
  /** Checked where it is read: a wrong kind makes the default profile unusable and says why. */
  kind: unchecked("provider.kind", "anthropic"),
  baseUrl: text("provider.baseUrl"),
  model: text("provider.model"),
  protocol: setting("provider.protocol", z.enum(PROTOCOLS as [ToolProtocolSetting, ...ToolProtocolSetting[]]), "xml"),
  retries: whole(OPTION_SETTING.retries, 0, MAX_RETRIES, OPTION_DEFAULTS.retries),
  firstReplyTimeoutSeconds: bounded("provider.firstReplyTimeoutSeconds", FIRST_REPLY_TIMEOUT_SECONDS),
  idleTimeoutSeconds: bounded("provider.idleTimeoutSeconds", IDLE_TIMEOUT_SECONDS),
  /** Validated by the core (resolveModelInfo), which names any bad field in the log. */
  modelInfo: unchecked("provider.modelInfo"),
  /** The default profile's provider settings and reasoning, checked where the profile is made (profiles.ts). */
  region: text("provider.region"),
  awsProfile: text("provider.awsProfile"),
  project: text("provider.project"),
  keyFile: text("provider.keyFile"),
  apiVersion: text("provider.apiVersion"),
  reasoningEffort: unchecked("provider.reasoningEffort"),
  thinkingBudget: unchecked("provider.thinkingBudget"),
} satisfies Section;

/** How much of one reply is read (core/agent/replyLimits.ts); not in the settings panel. */
const reply = {
  maxChars: bounded("reply.maxChars", REPLY_MAX_CHARS),
  toolArgMaxChars: bounded("reply.toolArgMaxChars", TOOL_ARG_MAX_CHARS),
  maxToolCalls: bounded("reply.maxToolCalls", MAX_TOOL_CALLS),
} satisfies Section;

/** Checked by profiles.ts (buildState), which reports each bad entry and keeps the rest. */
const profiles = {
  list: unchecked("profiles"),
  active: unchecked("activeProfile"),
  modeProfiles: unchecked("modeProfiles"),
} satisfies Section;

/** A new task's defaults. The mode must also exist, which only the caller knows (readSetting's check). */
const task = {
  mode: text(OPTION_SETTING.mode, OPTION_DEFAULTS.mode),
  maxRequests: whole(OPTION_SETTING.maxRequests, 1, MAX_REQUESTS_LIMIT, OPTION_DEFAULTS.maxRequests),
  requireTodosDone: flag(OPTION_SETTING.requireTodosDone, OPTION_DEFAULTS.requireTodosDone),
  redactSecrets: flag("redactSecrets", true),
} satisfies Section;

/*
 * The keys are flat (kiln.autoApproveEnabled, not kiln.autoApprove.enabled): kiln.autoApprove is an
 * array, and VS Code's settings tree cannot hold keys under an array, so nested keys would clash with it.
 */
const autoApprove = {
  words: setting(APPROVE_SETTING.words, z.array(z.enum(APPROVE_WORDS)), ["read"]),
  enabled: flag(APPROVE_SETTING.enabled, true),
  allowed: strings(APPROVE_SETTING.allowed, DEFAULT_ALLOWED_COMMANDS),
  denied: strings(APPROVE_SETTING.denied, DEFAULT_DENIED_COMMANDS),
  refuseDenied: flag(APPROVE_SETTING.refuseDenied, false),
  // A fraction is taken as the whole number below it, as it always was.
  maxRequests: setting(APPROVE_SETTING.maxRequests, z.number().min(0).transform(Math.floor), 0),
  maxCost: limit(APPROVE_SETTING.maxCost),
} satisfies Section;

const context = {
  readFileMaxLines: bounded(OPTION_SETTING.readFileMaxLines, READ_FILE_MAX_LINES),
  toolResultMaxChars: bounded(OPTION_SETTING.toolResultMaxChars, TOOL_RESULT_MAX_CHARS),
  autoCondensePercent: whole("context.autoCondensePercent", CONDENSE_PERCENT.min, CONDENSE_PERCENT.max, DEFAULT_CONTEXT_SETTINGS.autoCondensePercent),
  condensePrompt: text("context.condensePrompt", DEFAULT_CONTEXT_SETTINGS.condensePrompt),
  /** A profile's name; one that names no profile is reported where it is used. */
  condenseProfile: text("context.condenseProfile"),
  shortenResultsAfter: whole("context.shortenResultsAfter", SHORTEN_AFTER.min, SHORTEN_AFTER.max, DEFAULT_CONTEXT_SETTINGS.shortenResultsAfter),
} satisfies Section;

/** A task's budget (core/context/budget.ts); 0: none. */
const budget = {
  maxTokens: limit("budget.maxTokens"),
  maxCost: limit("budget.maxCost"),
  maxInputPerRequest: limit("budget.maxInputTokensPerRequest"),
} satisfies Section & Record<keyof TaskBudget, Setting<number>>;

const terminal = {
  outputMaxChars: bounded(OPTION_SETTING.outputMaxChars, OUTPUT_MAX_CHARS),
} satisfies Section;

const commands = {
  sandbox: flag("commands.sandbox", false),
  sandboxNetwork: flag("commands.sandboxNetwork", false),
} satisfies Section;

/** How edits are proposed, matched and checked: kiln.edits.*, kiln.applyDiff.*, kiln.diagnostics.*. */
const edits = {
  openDiffEditor: flag("edits.openDiffEditor", true),
  fuzzyThreshold: within(OPTION_SETTING.fuzzyThreshold, 0.8, 1, OPTION_DEFAULTS.fuzzyThreshold),
  diagnosticsDelayMs: whole("diagnostics.delayMs", 0, 10_000, 1000),
} satisfies Section;

const mentions = {
  allowPrivateUrls: flag("mentions.allowPrivateUrls", false),
} satisfies Section;

/** An empty template means Kiln's own (templateFor), so only a non-string is wrong. */
const prompts = Object.fromEntries(PROMPT_KINDS.map((kind) => [kind, setting(`prompts.${kind}`, z.string(), DEFAULT_PROMPTS[kind], "Kiln's built-in template")])) as Record<
  PromptKind,
  Setting<string>
>;

const skills = {
  /** Ids of skills left out of the prompt and use_skill ("project:.kilocode/skills/release"). */
  disabled: strings("skills.disabled", []),
};

const rules = {
  /** Ids of rule files left out of the prompt ("project:.kilocode/rules/a.md"). */
  disabled: strings("rules.disabled", []),
} satisfies Section;

const checkpoints = {
  enabled: flag("checkpoints.enabled", true),
  maxFileSizeMB: within("checkpoints.maxFileSizeMB", 0.01, 1024, 5),
  timeBudgetSeconds: within("checkpoints.timeBudgetSeconds", 1, 600, 15),
  maxTotalMB: within("checkpoints.maxTotalMB", 10, 1_000_000, 500),
} satisfies Section;

/** The codebase index behind codebase_search (core/codeIndex). */
const index = {
  enabled: flag("index.enabled", true),
  maxResults: whole("index.maxResults", 1, 50, 10),
  /** Vectors for search by meaning (core/codeIndex/embedder.ts); "none": words alone. The key is in SecretStorage. */
  embedder: setting("index.embedder", z.enum(["none", ...EMBEDDER_KINDS] as [string, ...string[]]), "none"),
  embedderModel: text("index.embedderModel"),
  embedderBaseUrl: text("index.embedderBaseUrl"),
  embedderRegion: text("index.embedderRegion"),
  postgresUrl: text("index.postgresUrl"),
} satisfies Section;

const notifications = {
  /** A notification when a task finishes, fails or waits for you while the window is not focused. */
  enabled: flag("notifications.enabled", true),
} satisfies Section;

const browser = {
  /** Empty: found automatically. */
  executablePath: text(OPTION_SETTING.browserPath, OPTION_DEFAULTS.browserPath),
} satisfies Section;

/** The sections, as package.json's contributes.configuration groups them by key. */
export const KILN = { provider, reply, profiles, task, autoApprove, context, budget, terminal, commands, edits, mentions, prompts, rules, skills, checkpoints, index, browser, notifications } as const;

/** The settings panel's fields (shared/protocol/settings.ts) and the settings behind them. */
export const APPROVE_FIELDS = autoApprove satisfies Record<ApproveField, Setting<unknown>>;
export const OPTION_FIELDS = {
  mode: task.mode,
  maxRequests: task.maxRequests,
  retries: provider.retries,
  requireTodosDone: task.requireTodosDone,
  readFileMaxLines: context.readFileMaxLines,
  toolResultMaxChars: context.toolResultMaxChars,
  outputMaxChars: terminal.outputMaxChars,
  fuzzyThreshold: edits.fuzzyThreshold,
  browserPath: browser.executablePath,
  autoCondensePercent: context.autoCondensePercent,
  shortenResultsAfter: context.shortenResultsAfter,
  budgetMaxTokens: budget.maxTokens,
  budgetMaxCost: budget.maxCost,
  budgetMaxInputTokens: budget.maxInputPerRequest,
} satisfies Record<OptionField, Setting<unknown>>;

/** The full name, as settings.json and the settings editor spell it. */
export const fullKey = (s: Setting<unknown>): string => `kiln.${s.key}`;

/** Why a value was refused, for the log: the caller's own check or the schema's first complaint. */
export type Check<T> = (value: T) => string | undefined;

export type Validate = <T>(s: Setting<T>, raw: unknown, logger?: Logger, check?: Check<T>) => T;

const show = (value: unknown, max = 200): string => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > max ? `${json.slice(0, max)}…` : json;
};

/** A fresh copy, so a caller that changes a default list cannot change it for the next read. */
const fallbackOf = <T>(s: Setting<T>): T => (typeof s.fallback === "object" && s.fallback !== null ? structuredClone(s.fallback) : s.fallback);

/**
 * Checks raw values against their settings' schemas. A missing value (undefined, or null written
 * by hand) is the default without a word, as VS Code's own default would be; a wrong one is the
 * default with a warning, logged once per key and value for the validator's life: a setting is
 * read at each use, and a warning at every request would bury the log. Without a logger nothing
 * is logged or remembered (the settings panel shows values; the agent's reads report them).
 */
export function createValidator(): Validate {
  const reported = new Set<string>();
  return <T>(s: Setting<T>, raw: unknown, logger?: Logger, check?: Check<T>): T => {
    if (raw === undefined || raw === null) return fallbackOf(s);
    const parsed = s.schema.safeParse(raw);
    const problem = parsed.success ? check?.(parsed.data) : parsed.error.issues[0]?.message;
    if (parsed.success && problem === undefined) return parsed.data;
    const fallback = fallbackOf(s);
    const id = `${s.key}\u0000${JSON.stringify(raw)}`;
    if (logger && !reported.has(id)) {
      reported.add(id);
      const why = problem ? ` (${problem.charAt(0).toLowerCase()}${problem.slice(1)})` : "";
      logger.warn(`setting ${fullKey(s)} is ${show(raw)}, which is not valid; using ${s.fallbackText ?? show(fallback)}${why}`);
    }
    return fallback;
  };
}

/** Each field of a section, checked on its own: one wrong value does not discard the others. */
export function validateSection<S extends Section>(section: S, rawOf: (key: string) => unknown, validate: Validate, logger?: Logger): SectionValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(section)) values[name] = validate(s, rawOf(s.key), logger);
  return values as SectionValues<S>;
}
