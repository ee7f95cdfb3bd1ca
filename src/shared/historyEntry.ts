import { z } from "zod";

/** The agents whose task history Kiln imports (src/core/import). */
export const IMPORT_SOURCE_KINDS = ["kilo", "roo", "zoo", "cline"] as const;
export type ImportSourceKind = (typeof IMPORT_SOURCE_KINDS)[number];
/** Their product names, as their makers write them (the history view says where a task came from). */
export const IMPORT_SOURCE_LABELS: Record<ImportSourceKind, string> = { kilo: "Kilo Code", roo: "Roo Code", zoo: "Zoo Code", cline: "Cline" };

/** One task in the history list, as the index keeps it and the history view shows it. */
export const HistoryEntrySchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
  title: z.string().max(500),
  /** The workspace folder the task ran in; the history view groups by it. */
  workspace: z.string().max(4_096),
  mode: z.string().max(100),
  model: z.string().max(300),
  /** The provider kind the task last ran with (absent in tasks saved before it was kept): a resumed task goes back to it. */
  provider: z.string().max(50).optional(),
  /** Where its requests went, without credentials; absent for the provider's default endpoint. */
  baseUrl: z.string().max(2_000).optional(),
  protocol: z.enum(["xml", "native"]),
  tokensIn: z.number().nonnegative(),
  tokensOut: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  cost: z.number().nonnegative().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  favorite: z.boolean(),
  /** The task's last status (running, completed, stopped…); "running" after a crash means interrupted. */
  status: z.string().max(50),
  /** Brought over by `kiln import` (or the extension's import) from this agent's task history. */
  importedFrom: z.enum(IMPORT_SOURCE_KINDS).optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
