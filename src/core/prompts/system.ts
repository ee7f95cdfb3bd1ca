import type { Mode } from "../modes/modes";
import { rulesSection } from "../rules/rulesPrompt";
import type { RulesLoad } from "../rules/loadRules";
import type { McpServerView } from "../mcp/types";
import { mcpSection } from "./mcpSection";
import { skillsSection, type Skill } from "../skills/skills";
import { UNTRUSTED_RULE } from "./untrusted";

export interface Environment {
  cwd: string;
  os: string;
  /** Shown as the date only: a time that changes with each request would defeat prompt caching. */
  now: Date;
  /** The modes the task may switch to or delegate to, with when to use each. */
  modes?: readonly Mode[];
  /** Files open in the editor (workspace-relative), the active one first. */
  openFiles?: readonly string[];
  /** The user's rule files for this mode (core/rules); shown last, as the user's own instructions. */
  rules?: Pick<RulesLoad, "rules" | "leftOut">;
  /** The user's enabled skills: the prompt lists names and descriptions, use_skill loads one. */
  skills?: readonly Pick<Skill, "name" | "description">[];
  /** The MCP servers as they are now; connected ones are listed for modes with the mcp group. */
  mcp?: readonly McpServerView[];
  /** Whether the host has the editor's language servers (VS Code): go_to_definition and its kin are offered. */
  languageServices?: boolean;
}

function allows(mode: Mode, group: string): boolean {
  return mode.groups.some((g) => (Array.isArray(g) ? g[0] : g) === group);
}

/** Where modes may read: the code-intelligence tools, or that there are none here (the CLI). */
function codeIntelligenceRule(mode: Mode, available: boolean | undefined): string {
  if (!allows(mode, "read")) return "";
  const rename = allows(mode, "edit");
  if (available) {
    return `\n- To find where a symbol is defined, used or called, prefer go_to_definition, find_references and call_hierarchy\n  (the editor's language servers) over searching its text; workspace_symbols finds a name you know.${rename ? "\n  To rename a symbol everywhere it is used, use rename_symbol." : ""}`;
  }
  return `\n- go_to_definition, find_references, workspace_symbols, call_hierarchy${rename ? " and rename_symbol" : ""} (an editor's language servers)\n  are not available here: find definitions and uses with search_files and list_code_definition_names.`;
}

function modesSection(modes: readonly Mode[] | undefined, current: Mode): string {
  if (!modes || modes.length < 2) return "";
  const lines = modes.map((m) => `- ${m.slug} (${m.name})${m.slug === current.slug ? " [current]" : ""}: ${m.whenToUse ?? m.description ?? m.roleDefinition}`);
  return `\n\n# Modes\n\nswitch_mode changes the mode; new_task starts a subtask in one.\n${lines.join("\n")}`;
}

export type ToolProtocol = "xml" | "native";
/** auto: native where the endpoint takes tools, XML when it rejects them or the model writes XML. */
export type ToolProtocolSetting = ToolProtocol | "auto";

export function buildSystemPrompt(mode: Mode, protocol: ToolProtocol, xmlToolSection: string, env: Environment): string {
  const toolUse =
    protocol === "xml"
      ? `# Tool use

You work step by step with tools. Call exactly one tool per message, written as XML, and wait for its
result before the next step:

<tool_name>
<param_name>value</param_name>
</tool_name>

# Tools

${xmlToolSection}`
      : "# Tool use\n\nYou work step by step with the tools you are given. Wait for each result before the next step.";
  return `${mode.roleDefinition}

${toolUse}

# Rules

- Paths are relative to the workspace folder ${env.cwd}.
- Every message must use a tool. When the task is done, use attempt_completion; when you need the
  user, use ask_followup_question.
- Never write placeholders such as "rest of the code unchanged": write complete content.
- To change part of a file, use apply_diff (or insert_content, search_and_replace); write_to_file is
  for new files and complete rewrites. Read a file before you change it.${codeIntelligenceRule(mode, env.languageServices)}
${UNTRUSTED_RULE}
- [redacted] in a tool result stands for a secret Kiln removed (an API key, a token, a password). Never
  write it into a file: edit around the line that holds it, or ask the user.

# Environment

- Workspace: ${env.cwd}
- OS: ${env.os}
- Date: ${env.now.toISOString().slice(0, 10)}${env.openFiles?.length ? `\n- Open files: ${env.openFiles.slice(0, 20).join(", ")}${env.openFiles.length > 20 ? ` (and ${env.openFiles.length - 20} more)` : ""}` : ""}
- Mode: ${mode.slug} (${mode.name})${modesSection(env.modes, mode)}${mode.customInstructions ? `\n\n# Instructions for this mode\n\n${mode.customInstructions}` : ""}${allows(mode, "mcp") ? mcpSection(env.mcp) : ""}${skillsSection(env.skills)}${rulesSection(env.rules)}`;
}
