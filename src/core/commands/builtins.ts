/** Slash commands Kiln knows itself; a workflow file of the same name is shadowed by these. */
export interface BuiltinCommand {
  name: string;
  description: string;
  argumentHint?: string;
  /** The message the model gets for `/name args`; undefined for commands the chat handles itself. */
  prompt?(args: string): string;
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: "newtask", description: "Start a new task with the rest of the message", argumentHint: "<message>" },
  {
    name: "condense",
    description: "Condense the conversation to free context",
    argumentHint: "[what to keep]",
    prompt: (args) =>
      `Call the condense tool now to summarise our conversation so far${args ? `, keeping in particular: ${args}` : ""}. Then tell me briefly what the summary kept and wait for my next message.`,
  },
  {
    name: "newrule",
    description: "Have Kiln write a project rule (new_rule)",
    argumentHint: "<what the rule should say>",
    prompt: (args) => `Write a rule for this project with the new_rule tool${args ? `: ${args}` : ", based on what we did and decided in this conversation"}. Keep it short and say why it matters.`,
  },
  {
    name: "init",
    description: "Analyse the project and write AGENTS.md",
    argumentHint: "[focus]",
    prompt: (args) =>
      `Analyse this project: its structure, languages, build, test and lint commands, and the conventions its code follows. Then write AGENTS.md at the workspace root with what an AI coding agent needs to know to work here (commands to run, layout, conventions, pitfalls). If AGENTS.md exists, improve it rather than starting over.${args ? `\nFocus: ${args}` : ""}`,
  },
];

export function findBuiltin(name: string): BuiltinCommand | undefined {
  return BUILTIN_COMMANDS.find((c) => c.name === name.toLowerCase());
}
