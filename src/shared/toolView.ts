import { z } from "zod";

/**
 * How a tool call looks, wherever it is shown: the chat's card, the CLI's line. Each tool says it
 * (its `present` in src/core/tools), from its arguments as far as they have arrived, so the places
 * that show a call know nothing of any tool or parameter name.
 */

/** A labelled value; `code` shows it as code (a regex, a glob). */
export const ToolFieldSchema = z.object({ label: z.string(), value: z.string(), code: z.boolean().optional() });
export type ToolField = z.infer<typeof ToolFieldSchema>;

/** One change: lines taken out and put in, and where (`at line 12`, `before line 5`). */
export const ToolHunkSchema = z.object({ label: z.string().optional(), removed: z.array(z.string()), added: z.array(z.string()) });
export type ToolHunk = z.infer<typeof ToolHunkSchema>;

export const ChecklistStatusSchema = z.enum(["pending", "in_progress", "completed"]);

export const ToolViewBodySchema = z.discriminatedUnion("kind", [
  /** Label / value rows. */
  z.object({ kind: z.literal("fields"), fields: z.array(ToolFieldSchema) }),
  /** A file's whole new content. */
  z.object({ kind: z.literal("file"), path: z.string(), content: z.string() }),
  /** Changes to a file, hunk by hunk. */
  z.object({ kind: z.literal("diff"), hunks: z.array(ToolHunkSchema) }),
  /** A command line, with where and how it runs; its output is the call's result. */
  z.object({ kind: z.literal("command"), command: z.string(), fields: z.array(ToolFieldSchema).optional() }),
  /** Files, each with a note (the lines read). */
  z.object({ kind: z.literal("files"), files: z.array(z.object({ path: z.string(), note: z.string().optional() })) }),
  /** Text the model wrote (a question, a reason, instructions). */
  z.object({ kind: z.literal("markdown"), text: z.string() }),
  /** A todo list, an item without status being a line that is not an item; `text` comes above it. */
  z.object({ kind: z.literal("checklist"), text: z.string().optional(), items: z.array(z.object({ text: z.string(), status: ChecklistStatusSchema.optional() })) }),
]);
export type ToolViewBody = z.infer<typeof ToolViewBodySchema>;

/**
 * The icons a card may show, by their codicon names (VS Code's icon font, which the webview ships).
 * A fixed list: the name becomes a class name in the page.
 */
export const TOOL_ICONS = [
  "eye",
  "edit",
  "new-file",
  "trash",
  "terminal",
  "output",
  "search",
  "list-tree",
  "symbol-class",
  "globe",
  "plug",
  "question",
  "pass",
  "arrow-swap",
  "checklist",
  "book",
  "law",
  "bug",
  "zap",
  "fold",
  "tools",
  "go-to-file",
  "references",
  "symbol-misc",
  "call-incoming",
  "call-outgoing",
] as const;
export const ToolIconSchema = z.enum(TOOL_ICONS);
export type ToolIcon = z.infer<typeof ToolIconSchema>;

/** A file or folder in the workspace that the target names, and the line to show; clicking the target opens it. */
export const ToolLinkSchema = z.object({ path: z.string().min(1), line: z.number().int().positive().optional() });
export type ToolLink = z.infer<typeof ToolLinkSchema>;

export const ToolViewSchema = z.object({
  icon: ToolIconSchema.optional(),
  /**
   * What the call does, as a sentence a person reads, by its status: "Kiln wants to edit ␁", "Kiln
   * read ␁". TARGET_SLOT marks where the target goes, so a translation may move it; a title without
   * one has the target after it.
   */
  title: z.string(),
  /** What it works on: a path (with the lines read), a command, a mode, a server · tool. */
  target: z.string().optional(),
  /** The target is code (a command line): shown as code. */
  code: z.boolean().optional(),
  /** The target is a path that opens in the editor. */
  link: ToolLinkSchema.optional(),
  /** Absent when the title says it all (or nothing has arrived yet). */
  body: ToolViewBodySchema.optional(),
});
export type ToolView = z.infer<typeof ToolViewSchema>;

/** Where a title's target goes: a control character no sentence or translation holds. */
export const TARGET_SLOT = "\u0001";

/** A title with no target yet: its slot left out, and the space beside it. */
export function withoutTarget(title: string): string {
  return title.split(TARGET_SLOT).join("").replace(/\s+/g, " ").trim();
}

/**
 * A title around its target: the words before and after it. A title without a slot (a tool that
 * names its target itself, a call saved before titles had one) has its target after it.
 */
export function titleAround(view: Pick<ToolView, "title">): { before: string; after: string } {
  const at = view.title.indexOf(TARGET_SLOT);
  if (at < 0) return { before: `${view.title} `, after: "" };
  return { before: view.title.slice(0, at), after: view.title.slice(at + TARGET_SLOT.length) };
}

/** The title line as text: `Kiln read src/greet.ts:10-40`; `shown` writes the target (as code, say). */
export function toolHeading(view: ToolView, shown: (target: string) => string = (target) => target): string {
  if (!view.target) return withoutTarget(view.title);
  const { before, after } = titleAround(view);
  return `${before}${shown(view.target)}${after}`;
}

/** Label / value rows without the values that are absent (not streamed yet) or empty; `code` marks them all as code. */
export function fields(rows: readonly (readonly [string, string | undefined])[], code = false): ToolField[] {
  return rows.flatMap(([label, value]) => (value === undefined || value === "" ? [] : [code ? { label, value, code } : { label, value }]));
}
