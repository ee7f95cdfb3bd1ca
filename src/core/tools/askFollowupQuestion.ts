import * as l10n from "@vscode/l10n";
import { z } from "zod";
import { defineTool, toolError, type Suggestion } from "./defineTool";
import { p } from "./params";
import { beforeRun, markdown, said, view } from "./present";
import { asArray, parseStructured } from "./structured";

const suggestionSchema = z.union([z.string().min(1), z.object({ text: z.string().min(1), mode: z.string().optional() })]);

/** `<suggest>A</suggest><suggest mode="code">B</suggest>`-style XML or a JSON list. */
export function parseSuggestions(text: string | undefined): { ok: true; suggestions: Suggestion[] } | { ok: false; error: string } {
  if (text === undefined || text.trim() === "") return { ok: true, suggestions: [] };
  const parsed = parseStructured(text, { attributes: true });
  if (!parsed.ok) return { ok: false, error: `<follow_up> is ${parsed.error}` };
  const value = parsed.value as { suggest?: unknown } | unknown[] | string;
  const list = Array.isArray(value) ? value : typeof value === "object" && value !== null ? asArray(value.suggest) : [];
  const suggestions: Suggestion[] = [];
  for (const entry of list) {
    const result = suggestionSchema.safeParse(entry);
    if (!result.success) return { ok: false, error: "each suggestion must be text, or {text, mode}" };
    suggestions.push(typeof result.data === "string" ? { text: result.data } : result.data);
  }
  return { ok: true, suggestions };
}

export const askFollowupQuestionTool = defineTool({
  name: "ask_followup_question",
  group: "always",
  description: "Ask the user a question when you need an answer to go on. Offer 2-4 likely answers as suggestions. The task waits for the reply.",
  params: {
    question: p.string("The question"),
    follow_up: p.string("Suggested answers: <suggest>answer</suggest> for each (or a JSON list of strings)", { optional: true, raw: true }),
  },
  present(args, status) {
    // Its own chat item shows the question once the call has run; until then the card previews it.
    const title = beforeRun(status)
      ? l10n.t("Kiln has a question")
      : status === "done"
        ? l10n.t("Kiln asked")
        : said(status, {
            wants: () => l10n.t("Kiln wants to ask a question"),
            doing: () => l10n.t("Kiln is asking a question"),
            did: () => l10n.t("Kiln asked a question"),
            denied: () => l10n.t("Kiln was not allowed to ask a question"),
            failed: () => l10n.t("Kiln could not ask a question"),
          });
    return view({ icon: "question", title }, beforeRun(status) ? markdown(args.question) : undefined);
  },
  async execute(args) {
    const parsed = parseSuggestions(args.follow_up);
    if (!parsed.ok) return toolError("invalid_args", `${parsed.error}.`);
    return { kind: "question", question: args.question, suggestions: parsed.suggestions };
  },
});
