import type { Mode } from "../modes/modes";

export interface Environment {
  cwd: string;
  os: string;
  now: Date;
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

# Environment

- Workspace: ${env.cwd}
- OS: ${env.os}
- Time: ${env.now.toISOString()}
- Mode: ${mode.slug} (${mode.name})`;
}
