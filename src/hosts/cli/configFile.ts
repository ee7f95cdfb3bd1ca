/**
 * The CLI's config file: profiles (a provider, its endpoint, model and options, by name) and defaults,
 * so `kiln run --profile work` remembers what would otherwise be a dozen flags. Two files are read:
 * the user's own (~/.kilocode/kiln/config.json, or KILN_CONFIG's) and the workspace's
 * .kilocode/kiln.json, which comes with a repository the user cloned and so may not choose where the
 * API key goes, which key is read, or what runs unasked. Both are JSONC, checked whole before anything
 * runs: a broken file stops the CLI with every problem named by file and field.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { z } from "zod";
import { resolveModelInfo } from "../../core/llm/models";
import { credentialShape, isCredentialName } from "../../core/llm/secretShapes";
import type { ApproveWord } from "../../core/approval/settings";
import type { ToolProtocolSetting } from "../../core/prompts/system";
import { FAMILY_OPTIONS, isProviderKind, PROVIDER_KINDS, PROVIDER_OPTIONS, providerEntry, type ProviderKind, type ProviderOption } from "../../shared/providerCatalog";
import { isThinkingBudget, REASONING_EFFORTS, THINKING_BUDGET, type ReasoningEffort } from "../../shared/reasoning";
import { approveWords, settleApprovals, UsageError, type CliArgs, type ConfigurableField } from "./args";

export type ConfigScope = "user" | "project";

export interface ConfigDefaults {
  profile?: string;
  mode?: string;
  protocol?: ToolProtocolSetting;
  approve?: ApproveWord[];
  allowCommands?: string[];
  denyCommands?: string[];
  maxRequests?: number;
  retries?: number;
}

export interface ConfigProfile extends Partial<Record<ProviderOption, string>> {
  provider: ProviderKind;
  baseUrl?: string;
  model?: string;
  protocol?: ToolProtocolSetting;
  reasoningEffort?: ReasoningEffort;
  thinkingBudget?: number;
  modelInfo?: Record<string, unknown>;
  apiKeyEnv?: string;
}

/** One file, checked. */
export interface ConfigFile {
  file: string;
  scope: ConfigScope;
  defaults: ConfigDefaults;
  profiles: Record<string, ConfigProfile>;
}

/** The files read (the user's first), and where they were looked for. */
export interface LoadedConfig {
  files: ConfigFile[];
  looked: string[];
}

/** What is wrong with the files or --profile: printed as it is, without the usage text that would bury it. */
export class ConfigError extends UsageError {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
  }
}

const USER_FILE_HINT = "~/.kilocode/kiln/config.json";
const KEYS_NEVER = "keys are never kept in the config file; set the provider's variable (e.g. ANTHROPIC_API_KEY) or name one with apiKeyEnv";
const APPROVALS_ARE_YOURS = `approvals come from your own config (${USER_FILE_HINT}) or flags, not from a project's file`;

const PROTOCOLS = ["xml", "native", "auto"] as const satisfies readonly ToolProtocolSetting[];
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const text = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .trim()
    .min(1, { error: `must be ${what}` });
const whole = (min: number, max?: number) => {
  const error = max === undefined ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`;
  const n = z.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? n : n.max(max, { error });
};
const protocol = z.enum(PROTOCOLS, { error: "must be xml, native or auto" });
const commandList = z.array(text("a command prefix"), { error: "must be a list of command prefixes" });
const approve = z.string({ error: "must be none, all, or words like read,edit" }).transform((value, ctx) => {
  const parsed = approveWords(value.trim());
  if ("problem" in parsed) {
    ctx.addIssue({ code: "custom", message: parsed.problem });
    return z.NEVER;
  }
  return parsed.words;
});
const httpUrl = z
  .string({ error: "must be an http(s) URL" })
  .trim()
  .refine((url) => httpHost(url) !== undefined, { error: "must be an http(s) URL" });

const DefaultsSchema = z
  .object(
    {
      profile: text("a profile's name"),
      mode: text("a mode's slug (code, architect, ask, debug, orchestrator or a custom mode)"),
      protocol,
      approve,
      allowCommands: commandList,
      denyCommands: commandList,
      maxRequests: whole(1),
      retries: whole(0, 10),
    },
    { error: "must be an object of default settings" },
  )
  .partial()
  .strict();

const ProfileFields = z
  .object(
    {
      provider: z.enum(PROVIDER_KINDS, {
        error: (issue) => (issue.input === undefined ? `a profile needs its provider: one of ${PROVIDER_KINDS.join(", ")}` : `must be one of ${PROVIDER_KINDS.join(", ")}`),
      }),
      baseUrl: httpUrl.optional(),
      model: text("a model id").optional(),
      protocol: protocol.optional(),
      reasoningEffort: z.enum(REASONING_EFFORTS, { error: `must be ${REASONING_EFFORTS.join(", ")}` }).optional(),
      thinkingBudget: z
        .number({ error: `must be a whole number from ${THINKING_BUDGET.min} to ${THINKING_BUDGET.max}` })
        .refine(isThinkingBudget, { error: `must be a whole number from ${THINKING_BUDGET.min} to ${THINKING_BUDGET.max}` })
        .optional(),
      modelInfo: z.record(z.string(), z.unknown(), { error: 'must be an object, like {"contextWindow": 200000}' }).optional(),
      region: text("a region, like us-east-1").optional(),
      awsProfile: text("the name of an AWS profile").optional(),
      project: text("a Google Cloud project id").optional(),
      keyFile: text("the path of a service account key file").optional(),
      apiVersion: text("an API version, like 2024-10-21").optional(),
      apiKeyEnv: z.string({ error: "must be the name of an environment variable" }).regex(VARIABLE_NAME, { error: "must be the name of an environment variable (letters, digits and _)" }).optional(),
    },
    { error: "must be an object of a profile's settings" },
  )
  .strict();

const ProfileSchema = ProfileFields.superRefine((profile, ctx) => {
  if (profile.reasoningEffort !== undefined && profile.thinkingBudget !== undefined) {
    ctx.addIssue({ code: "custom", path: ["thinkingBudget"], message: "give reasoningEffort or thinkingBudget, not both" });
  }
  const entry = providerEntry(profile.provider);
  for (const option of PROVIDER_OPTIONS) {
    if (profile[option] === undefined || FAMILY_OPTIONS[entry.family].includes(option)) continue;
    const readers = [
      ...new Set(
        PROVIDER_KINDS.map(providerEntry)
          .filter((e) => FAMILY_OPTIONS[e.family].includes(option))
          .map((e) => e.label),
      ),
    ];
    ctx.addIssue({ code: "custom", path: [option], message: `${entry.label} does not read it (${readers.join(" and ")} do)` });
  }
  if (profile.modelInfo) {
    for (const error of resolveModelInfo(profile.provider, profile.model ?? "", profile.modelInfo).errors) {
      // Each reads "field: what is wrong"; the field goes into the path.
      const at = error.indexOf(": ");
      ctx.addIssue({ code: "custom", path: ["modelInfo", error.slice(0, at)], message: error.slice(at + 2) });
    }
  }
});

const ConfigSchema = z
  .object({
    $schema: z.string({ error: "must be a URL or path of a JSON schema" }).optional(),
    defaults: DefaultsSchema.optional(),
    profiles: z.record(z.string(), ProfileSchema, { error: "must be an object of profiles by name" }).optional(),
  })
  .strict();

/** The fields an object at `path` may have, for the message about one it may not. */
function knownFields(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return Object.keys(ConfigSchema.shape);
  if (path.length === 1 && path[0] === "defaults") return Object.keys(DefaultsSchema.shape);
  if (path.length === 2 && path[0] === "profiles") return Object.keys(ProfileFields.shape);
  return [];
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i > 0 ? "." : ""}${String(part)}`)).join("");
}

const problemAt = (file: string, path: readonly PropertyKey[], message: string) => (path.length > 0 ? `${file}: ${formatPath(path)}: ${message}` : `${file}: ${message}`);

/** Fields named like a key and values shaped like one, anywhere in the file. */
function credentialProblems(value: unknown, path: PropertyKey[], found: { path: PropertyKey[]; message: string }[]): void {
  if (typeof value === "string") {
    const shape = credentialShape(value);
    if (shape) found.push({ path, message: `this looks like ${/^[AEIOU]/.test(shape) ? "an" : "a"} ${shape}; ${KEYS_NEVER}` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => credentialProblems(item, [...path, i], found));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  // The names under "profiles" are the user's names for profiles, not fields.
  const namesProfiles = path.length === 1 && path[0] === "profiles";
  for (const [key, item] of Object.entries(value)) {
    if (!namesProfiles && isCredentialName(key)) found.push({ path: [...path, key], message: KEYS_NEVER });
    else credentialProblems(item, [...path, key], found);
  }
}

/** The host of an http(s) URL, as the URL parser writes it (an IPv6 address in brackets); undefined for anything else. */
function httpHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** localhost, 127.0.0.0/8 or [::1]: a server on this machine (Ollama, LM Studio), which a project may name. */
export function isLoopbackUrl(url: string): boolean {
  const host = httpHost(url.trim());
  return host === "localhost" || host === "[::1]" || (host !== undefined && /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What a project's file may not set: the approvals, which credentials are read, and where requests go. */
function projectProblems(raw: Record<string, unknown>, found: { path: PropertyKey[]; message: string }[]): void {
  const defaults = raw.defaults;
  if (isObject(defaults)) {
    for (const field of ["approve", "allowCommands", "denyCommands"]) {
      if (field in defaults) found.push({ path: ["defaults", field], message: APPROVALS_ARE_YOURS });
    }
  }
  const profiles = raw.profiles;
  if (!isObject(profiles)) return;
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isObject(profile)) continue;
    if ("apiKeyEnv" in profile) {
      found.push({
        path: ["profiles", name, "apiKeyEnv"],
        message: `a project's file may not choose which variable your key is read from; set it in your own config (${USER_FILE_HINT}) or pass --api-key-env`,
      });
    }
    if ("keyFile" in profile) {
      found.push({ path: ["profiles", name, "keyFile"], message: `a project's file may not choose which credentials are read; set it in your own config (${USER_FILE_HINT}) or pass --key-file` });
    }
    const baseUrl = profile.baseUrl;
    if (typeof baseUrl === "string" && httpHost(baseUrl.trim()) !== undefined && !isLoopbackUrl(baseUrl)) {
      found.push({
        path: ["profiles", name, "baseUrl"],
        message: `a project's file may point a profile only at this machine (localhost, 127.0.0.1, [::1]), as it must not choose where your API key is sent; move this profile into your own config (${USER_FILE_HINT}) or pass --base-url`,
      });
    }
  }
}

const SYNTAX: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "not a valid number",
  PropertyNameExpected: "expected a field name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: "expected the end of the file after the top-level object",
  InvalidCommentToken: "not a valid comment",
  UnexpectedEndOfComment: "a comment that is not closed",
  UnexpectedEndOfString: "a string that is not closed",
  UnexpectedEndOfNumber: "a number cut short",
  InvalidUnicode: "not a valid \\u escape",
  InvalidEscapeCharacter: "not a valid escape",
  InvalidCharacter: "a character that must be escaped in a string",
};

function syntaxProblem(file: string, text: string, error: ParseError): string {
  const before = text.slice(0, error.offset);
  const line = before.split("\n").length;
  const column = error.offset - before.lastIndexOf("\n");
  const code = printParseErrorCode(error.error);
  return `${file}:${line}:${column}: ${SYNTAX[code] ?? code}`;
}

/**
 * One file's text, checked: JSONC syntax, credentials, the fields and their values, and for a
 * project's file what it may not set. Every problem names the file and the field.
 */
export function parseConfigText(text: string, file: string, scope: ConfigScope): { config?: ConfigFile; problems: string[] } {
  const body = text.replace(/^\uFEFF/, "");
  const errors: ParseError[] = [];
  const raw: unknown = parse(body, errors, { allowTrailingComma: true, disallowComments: false });
  // Only the first: the parser's later errors mostly follow from it.
  if (errors.length > 0) return { problems: [syntaxProblem(file, body, errors[0]!)] };
  if (!isObject(raw)) return { problems: [`${file}: must hold one JSON object, like {"profiles": {}}`] };

  const found: { path: PropertyKey[]; message: string }[] = [];
  credentialProblems(raw, [], found);
  const reported = new Set(found.map((f) => formatPath(f.path)));
  if (isObject(raw.profiles)) {
    for (const name of Object.keys(raw.profiles)) {
      if (!PROFILE_NAME.test(name)) found.push({ path: ["profiles", name], message: "a profile's name is up to 64 letters, digits, _, - and ., starting with a letter or digit" });
    }
  }
  const parsed = ConfigSchema.safeParse(raw);
  for (const issue of parsed.error?.issues ?? []) {
    if (issue.code === "unrecognized_keys") {
      const known = knownFields(issue.path);
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        if (!reported.has(formatPath(path))) found.push({ path, message: `unknown field${known.length ? ` (the fields here: ${known.join(", ")})` : ""}` });
      }
    } else if (!reported.has(formatPath(issue.path))) {
      found.push({ path: issue.path, message: issue.message });
    }
  }
  if (scope === "project") projectProblems(raw, found);
  if (found.length > 0 || !parsed.success) return { problems: found.map((f) => problemAt(file, f.path, f.message)) };

  const profiles = Object.fromEntries(
    Object.entries(parsed.data.profiles ?? {}).map(([name, profile]) => {
      // A key file named relative to the config file is found beside it, wherever the CLI runs.
      const keyFile = profile.keyFile === undefined ? {} : { keyFile: resolve(dirname(file), profile.keyFile) };
      return [name, { ...profile, ...keyFile }];
    }),
  );
  return { config: { file, scope, defaults: parsed.data.defaults ?? {}, profiles }, problems: [] };
}

export interface ConfigPlaces {
  user: string;
  /** KILN_CONFIG named the user's file: its absence is an error, not "no file". */
  userNamed: boolean;
  project: string;
}

export function configPlaces(workspace: string, env: Record<string, string | undefined>): ConfigPlaces {
  const named = env.KILN_CONFIG?.trim();
  return {
    user: named ? resolve(named) : join(env.HOME || env.USERPROFILE || homedir(), ".kilocode", "kiln", "config.json"),
    userNamed: Boolean(named),
    project: join(resolve(workspace), ".kilocode", "kiln.json"),
  };
}

/** Reads and checks both files; throws a ConfigError naming every problem in them. */
export function readConfigFiles(places: ConfigPlaces): LoadedConfig {
  const problems: string[] = [];
  const files: ConfigFile[] = [];
  const toRead: [string, ConfigScope][] = [[places.user, "user"]];
  // KILN_CONFIG may name the project's file itself; it is then the user's own, read once.
  if (resolve(places.project) !== resolve(places.user)) toRead.push([places.project, "project"]);
  for (const [file, scope] of toRead) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const absent = code === "ENOENT" || code === "ENOTDIR";
      if (absent && !(scope === "user" && places.userNamed)) continue;
      problems.push(absent ? `${file}: KILN_CONFIG names this file, and there is none` : `${file}: cannot be read (${code ?? (err as Error).message})`);
      continue;
    }
    const parsed = parseConfigText(text, file, scope);
    problems.push(...parsed.problems);
    if (parsed.config) files.push(parsed.config);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { files, looked: toRead.map(([file]) => file) };
}

/** The config for `args`: none for history, restore-checkpoint and import, which use none of it. */
export function loadConfig(args: CliArgs, env: Record<string, string | undefined>): LoadedConfig {
  if (args.command === "history" || args.command === "restore-checkpoint" || args.command === "import") return { files: [], looked: [] };
  return readConfigFiles(configPlaces(args.workspace, env));
}

export interface MergedConfig {
  defaults: ConfigDefaults;
  /** The file whose defaults.profile is used, for the message when it names no profile. */
  defaultProfileFrom?: string;
  profiles: Record<string, { profile: ConfigProfile; file: string }>;
}

/** Later files win: a profile replaces one of the same name whole; defaults are merged field by field. */
export function mergeConfigs(files: readonly ConfigFile[]): MergedConfig {
  const merged: MergedConfig = { defaults: {}, profiles: {} };
  for (const config of files) {
    merged.defaults = { ...merged.defaults, ...config.defaults };
    if (config.defaults.profile !== undefined) merged.defaultProfileFrom = config.file;
    for (const [name, profile] of Object.entries(config.profiles)) merged.profiles[name] = { profile, file: config.file };
  }
  return merged;
}

function noSuchProfile(name: string, who: string, merged: MergedConfig, config: LoadedConfig): ConfigError {
  const names = Object.keys(merged.profiles).sort();
  const read = config.files.map((f) => f.file);
  const known = names.length > 0 ? `the profiles are ${names.join(", ")}` : "there are no profiles";
  const where = read.length > 0 ? `read ${read.join(" and ")}` : `no config file at ${config.looked.join(" or ")}`;
  return new ConfigError([`${who}: no profile "${name}"; ${known} (${where})`]);
}

/**
 * Fills what the flags and environment left open from the chosen profile (--profile, else the files'
 * defaults.profile), then from the files' defaults; what is left keeps the built-in defaults. Ends
 * by making autoApprove (settleApprovals), so it is called with no files too.
 *
 * A profile is one provider's settings, so it applies only where that provider is used: an explicit
 * --profile that --provider or KILN_PROVIDER contradicts is an error; a profile from defaults.profile
 * is left out then, and for a resumed task whose saved provider is another. An explicit --profile
 * counts as flags naming the provider, so it wins over a resumed task's own (args.given).
 */
export function applyConfig(args: CliArgs, config: LoadedConfig, resumed?: { provider?: string }): void {
  const merged = mergeConfigs(config.files);
  const { defaults } = merged;
  const explicitProfile = args.profile !== undefined;
  const name = args.profile ?? defaults.profile;
  let profile: ConfigProfile | undefined;
  if (name !== undefined) {
    profile = merged.profiles[name]?.profile;
    if (!profile) throw noSuchProfile(name, explicitProfile ? "--profile" : `${merged.defaultProfileFrom}: defaults.profile`, merged, config);
  }
  const namedKind = args.explicit.has("kind") ? args.settings.kind : !explicitProfile && isProviderKind(resumed?.provider) ? resumed.provider : undefined;
  if (profile && namedKind !== undefined && namedKind !== profile.provider) {
    if (explicitProfile) throw new ConfigError([`--profile ${name} is for ${profile.provider}, but ${args.given.kind ? "--provider" : "KILN_PROVIDER"} names ${namedKind}; give one of them`]);
    profile = undefined;
  }

  const fill = <T>(field: ConfigurableField, value: T | undefined, set: (value: T) => void) => {
    if (value !== undefined && !args.explicit.has(field)) set(value);
  };
  if (profile) {
    const p = profile;
    fill("kind", p.provider, (kind) => (args.settings.kind = kind));
    fill("baseUrl", p.baseUrl, (url) => (args.settings.baseUrl = url));
    fill("model", p.model, (model) => (args.settings.model = model));
    for (const option of PROVIDER_OPTIONS) fill(option, p[option], (value) => (args.settings[option] = value));
    fill("reasoning", p.reasoningEffort, (effort) => (args.settings.reasoningEffort = effort));
    fill("reasoning", p.thinkingBudget, (budget) => (args.settings.thinkingBudget = budget));
    fill("modelInfo", p.modelInfo, (info) => (args.modelInfo = info));
    fill("apiKeyEnv", p.apiKeyEnv, (variable) => (args.apiKeyEnv = variable));
    fill("protocol", p.protocol, (value) => (args.protocol = value));
    if (explicitProfile) {
      args.given.kind = true;
      if (p.baseUrl !== undefined) args.given.baseUrl = true;
      if (p.model !== undefined) args.given.model = true;
    }
  }
  fill("mode", defaults.mode, (mode) => (args.mode = mode));
  if (profile?.protocol === undefined) fill("protocol", defaults.protocol, (value) => (args.protocol = value));
  fill("maxRequests", defaults.maxRequests, (n) => (args.maxRequests = n));
  fill("retries", defaults.retries, (n) => (args.retries = n));
  settleApprovals(args, { words: defaults.approve, allowed: defaults.allowCommands, denied: defaults.denyCommands });
}
