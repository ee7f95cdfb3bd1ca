import type { ToolGroup } from "../tools/groups";

export type GroupEntry = Exclude<ToolGroup, "always"> | [Exclude<ToolGroup, "always">, { fileRegex?: string; description?: string }];

export interface Mode {
  slug: string;
  name: string;
  roleDefinition: string;
  groups: GroupEntry[];
  /** When to pick this mode: shown to the model for switch_mode and new_task. */
  whenToUse?: string;
  description?: string;
  /** Extra instructions added to the system prompt in this mode. */
  customInstructions?: string;
  /** Where a custom mode comes from (its file), for messages. */
  source?: string;
}

export const BUILTIN_MODES: readonly Mode[] = [
  {
    slug: "code",
    whenToUse: "Writing, changing or fixing code when the task is clear.",
    name: "Code",
    roleDefinition: "You are Kiln, a skilled software engineer working in the user's editor. You read, write and run code to finish the task.",
    groups: ["read", "edit", "browser", "command", "mcp"],
  },
  {
    slug: "architect",
    whenToUse: "Planning and design before building: gather context, write a plan or a spec in Markdown.",
    name: "Architect",
    roleDefinition: "You are Kiln, a technical lead who plans before building: gather context, then write the plan in Markdown.",
    groups: ["read", ["edit", { fileRegex: "\\.md$", description: "Markdown files only" }], "browser", "mcp"],
  },
  {
    slug: "ask",
    whenToUse: "Questions about the code or concepts, without changing files.",
    name: "Ask",
    roleDefinition: "You are Kiln, a knowledgeable assistant who answers questions about the code without changing it.",
    groups: ["read", "browser", "mcp"],
  },
  {
    slug: "debug",
    whenToUse: "Finding the cause of a bug or a failure before fixing it.",
    name: "Debug",
    roleDefinition: "You are Kiln, an expert at diagnosing problems: find the cause methodically, then fix it.",
    groups: ["read", "edit", "browser", "command", "mcp"],
  },
  {
    slug: "orchestrator",
    whenToUse: "Large tasks that split into parts for other modes, run as subtasks.",
    name: "Orchestrator",
    roleDefinition: "You are Kiln, a coordinator who splits complex work into subtasks and delegates them to the right modes.",
    groups: [],
  },
];

export function findMode(slug: string, modes: readonly Mode[] = BUILTIN_MODES): Mode | undefined {
  return modes.find((m) => m.slug === slug);
}

/** Why a mode refuses a call, as parts, so the chat can say it in the user's language (refusalText). */
export type ModeRefusal = { kind: "group"; tool: string; group: ToolGroup } | { kind: "files"; group: ToolGroup; what: { described: string } | { regex: string }; refused: readonly string[] };

/** `reason` is the model's English. */
export type ModeCheck = { ok: true } | { ok: false; reason: string; refusal: ModeRefusal };

/** Enforced at call time, not only stated in the prompt. */
export function checkMode(mode: Mode, group: ToolGroup, toolName: string, paths: readonly string[]): ModeCheck {
  if (group === "always") return { ok: true };
  const entry = mode.groups.find((g) => (Array.isArray(g) ? g[0] : g) === group);
  if (!entry) return { ok: false, reason: `${toolName} (${group} group) is not available in ${mode.name} mode.`, refusal: { kind: "group", tool: toolName, group } };
  if (Array.isArray(entry) && entry[1].fileRegex) {
    const pattern = new RegExp(entry[1].fileRegex);
    const refused = paths.filter((path) => !pattern.test(path));
    if (refused.length > 0) {
      // Descriptions are written for the prompt ("Markdown files only"); the sentence has its own "only".
      const described = entry[1].description?.replace(/\s+only\.?$/i, "");
      const what = described ?? `files matching ${entry[1].fileRegex}`;
      return {
        ok: false,
        reason: `${mode.name} mode may ${group} only ${what}; ${refused.join(", ")} is not one.`,
        refusal: { kind: "files", group, what: described === undefined ? { regex: entry[1].fileRegex } : { described }, refused },
      };
    }
  }
  return { ok: true };
}

export function toolsForMode<T extends { group: ToolGroup }>(mode: Mode, tools: readonly T[]): T[] {
  const groups = new Set(mode.groups.map((g) => (Array.isArray(g) ? g[0] : g)));
  return tools.filter((t) => t.group === "always" || groups.has(t.group as Exclude<ToolGroup, "always">));
}
