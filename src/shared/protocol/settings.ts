import { z } from "zod";
import { parseMessage, type ParsedMessage } from "./parse";

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
  })
  .strict();
export type ProfileForm = z.infer<typeof ProfileFormSchema>;

export const SettingsToHostSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("settings/ready") }).strict(),
  /** Creates a profile (no `original`) or replaces the one named `original`. */
  z.object({ type: z.literal("settings/saveProfile"), requestId: z.string().max(100), original: name.optional(), profile: ProfileFormSchema }).strict(),
  z.object({ type: z.literal("settings/deleteProfile"), requestId: z.string().max(100), name }).strict(),
  /** The key goes to SecretStorage; "" removes it. It is never sent back. */
  z.object({ type: z.literal("settings/setKey"), requestId: z.string().max(100), name, key: z.string().max(MAX_API_KEY) }).strict(),
  z.object({ type: z.literal("settings/setActive"), requestId: z.string().max(100), name }).strict(),
  /** Pins a profile to a mode; null removes the pin. */
  z.object({ type: z.literal("settings/pinMode"), requestId: z.string().max(100), mode: slug, profile: name.nullable() }).strict(),
  z.object({ type: z.literal("settings/openAutoApprove") }).strict(),
  /** Opens the project's .kilocodemodes (made with a commented example if missing) or the global modes file. */
  z.object({ type: z.literal("settings/editModes"), scope: z.enum(["project", "global"]) }).strict(),
  z.object({ type: z.literal("settings/exportMode"), requestId: z.string().max(100), slug }).strict(),
]);
export type SettingsToHost = z.infer<typeof SettingsToHostSchema>;

export interface ProfileView {
  name: string;
  kind: string;
  baseUrl: string;
  model: string;
  protocol: string;
  modelInfo?: Record<string, unknown>;
  /** "legacy": the kiln.provider.* settings (the default profile). */
  source: "legacy" | "settings";
  /** Whether a key is stored; the key itself never leaves the host. */
  hasKey: boolean;
}

export interface ModeView {
  slug: string;
  name: string;
  /** "built-in", or the file the custom mode comes from. */
  source: string;
  pinnedProfile?: string;
}

export interface SettingsState {
  profiles: ProfileView[];
  active: string;
  modes: ModeView[];
  /** Problems in kiln.profiles, kiln.modeProfiles and the mode files; the rest keeps working. */
  errors: string[];
  /** Whether a folder is open (the project's .kilocodemodes lives in it). */
  hasWorkspace: boolean;
}

export type HostToSettings =
  | { type: "settings/state"; state: SettingsState }
  /** The answer to one request; `field` names the form field a refusal is about. */
  | { type: "settings/result"; requestId: string; ok: boolean; message: string; field?: string };

export type SettingsParseResult = ParsedMessage<SettingsToHost>;

export function parseSettingsMessage(raw: unknown): SettingsParseResult {
  return parseMessage(SettingsToHostSchema, raw, "settings");
}
