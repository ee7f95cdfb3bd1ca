/**
 * Prompts for "ask the agent" from the editor and the terminal: templates the user can edit in
 * settings, with `${name}` placeholders. Plain text in, plain text out, so the CLI and the tests
 * can use them without a host.
 */

export const PROMPT_KINDS = ["explain", "fix", "improve", "addToContext", "terminalAddToContext", "terminalFix", "terminalExplain"] as const;
export type PromptKind = (typeof PROMPT_KINDS)[number];

/** Selections and terminal output beyond this are cut, with a note saying so. */
export const MAX_CONTEXT_CHARS = 100_000;

const EDITOR_REFERENCE = "${filePath}:${startLine}-${endLine}";

export const DEFAULT_PROMPTS: Readonly<Record<PromptKind, string>> = {
  explain: `Explain the following code from ${EDITOR_REFERENCE}:
\${userInput}

\`\`\`
\${selectedText}
\`\`\`

Please cover what it does and why, how its parts work together, and any notable patterns or pitfalls.`,
  fix: `Fix the problems in the following code from ${EDITOR_REFERENCE}:
\${diagnostics}
\${userInput}

\`\`\`
\${selectedText}
\`\`\`

Please address every problem listed above (if any) and any other bugs you find, make the fix in the file, and explain what was wrong.`,
  improve: `Improve the following code from ${EDITOR_REFERENCE}:
\${userInput}

\`\`\`
\${selectedText}
\`\`\`

Please suggest improvements for readability, correctness, performance and maintainability, keeping its behaviour, and explain each change.`,
  addToContext: `${EDITOR_REFERENCE}
\`\`\`
\${selectedText}
\`\`\``,
  terminalAddToContext: `Terminal output:
\`\`\`
\${terminalContent}
\`\`\``,
  terminalFix: `Fix this terminal command:
\${userInput}

\`\`\`
\${terminalContent}
\`\`\`

Please find what is wrong with it (its output, if shown, may tell), give the corrected command and explain the fix.`,
  terminalExplain: `Explain this terminal command:
\${userInput}

\`\`\`
\${terminalContent}
\`\`\`

Please say what it does, what each part and option means, and anything to watch out for.`,
};

export type TemplateValues = Readonly<Record<string, string | number | undefined>>;

const PLACEHOLDER = /\$\{([A-Za-z][A-Za-z0-9]*)\}/g;
const ALONE_ON_LINE = /^[ \t]*\$\{([A-Za-z][A-Za-z0-9]*)\}[ \t]*$/;

/**
 * Fills `${name}` placeholders in one pass, so a value that itself contains `${…}` (code often
 * does) is never expanded again. Unknown names stay as written: a typo in a user's template shows
 * in the prompt instead of vanishing. A line holding only a placeholder whose value is empty is
 * dropped, so an optional part (no diagnostics, no user input) leaves no blank line behind.
 */
export function fillTemplate(template: string, values: TemplateValues): string {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(values, name) && values[name] !== undefined;
  const lines = template.split("\n").filter((line) => {
    const alone = ALONE_ON_LINE.exec(line);
    return !(alone && has(alone[1]!) && String(values[alone[1]!]) === "");
  });
  return lines.join("\n").replace(PLACEHOLDER, (whole, name: string) => (has(name) ? String(values[name]) : whole));
}

/** The user's template for `kind`, or the default when theirs is missing or blank. */
export function templateFor(kind: PromptKind, custom: unknown): string {
  return typeof custom === "string" && custom.trim() !== "" ? custom : DEFAULT_PROMPTS[kind];
}

/**
 * Cuts text past `max` characters and says so: a whole log or generated file would crowd the
 * model's window. `keep: "end"` keeps the tail (terminal output, where errors are last).
 */
export function capText(text: string, what: string, keep: "start" | "end" = "start", max = MAX_CONTEXT_CHARS): string {
  if (text.length <= max) return text;
  const note = `[Kiln: the ${what} has ${text.length.toLocaleString("en-US")} characters; only the ${keep === "start" ? "first" : "last"} ${max.toLocaleString("en-US")} are included]`;
  return keep === "start" ? `${text.slice(0, max)}\n${note}` : `${note}\n${text.slice(text.length - max)}`;
}

export interface ProblemLine {
  severity: "Error" | "Warning" | "Information" | "Hint";
  message: string;
  /** 1-based. */
  line: number;
  source?: string;
  code?: string | number;
}

/** The `${diagnostics}` placeholder: a short list, or "" when there are none (its line is then dropped). */
export function formatProblems(problems: readonly ProblemLine[]): string {
  if (problems.length === 0) return "";
  const lines = problems.map((p) => {
    const origin = [p.source, p.code].filter((x) => x !== undefined && x !== "").join(" ");
    return `- [${p.severity}] line ${p.line}: ${p.message}${origin ? ` (${origin})` : ""}`;
  });
  return `Problems reported in this range:\n${lines.join("\n")}`;
}
