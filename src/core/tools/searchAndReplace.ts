import * as l10n from "@vscode/l10n";
import { defineTool, toolError, type ToolOutcome } from "./defineTool";
import { encodeLike, isOutcome, proposeEdit, readTextFile, type TextFile } from "./fileEdit";
import { p } from "./params";
import { editing, fieldsBody, linkTo, said, toLines, view } from "./present";
import { resolvePath } from "./paths";

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export const searchAndReplaceTool = defineTool({
  name: "search_and_replace",
  group: "edit",
  description:
    "Replace every occurrence of a text (or a regular expression with use_regex) in one file, optionally only within start_line-end_line. With use_regex, ^ and $ match at each line and the replacement may use $1, $2 … for groups. Fails, changing nothing, when nothing matches.",
  params: {
    path: p.string("Path of the file, relative to the workspace"),
    search: p.string("The text to find (a JavaScript regular expression when use_regex is true)", { raw: true }),
    replace: p.string("What to put in its place (may be empty to delete the matches)", { raw: true }),
    use_regex: p.boolean("Treat search as a regular expression (default false)", { optional: true }),
    ignore_case: p.boolean("Match regardless of case (default false)", { optional: true }),
    start_line: p.integer("Only replace from this line on (1-based)", { optional: true, min: 1 }),
    end_line: p.integer("Only replace up to this line (inclusive)", { optional: true, min: 1 }),
  },
  approval: (args) => ({ summary: args.use_regex ? l10n.t("Replace matches of a pattern in {0}", args.path) : l10n.t("Replace text in {0}", args.path), paths: [args.path], reviewed: true }),
  present(args, status) {
    const lines = !(args.start_line || args.end_line) ? undefined : args.end_line ? l10n.t("lines {0}-{1}", args.start_line ?? "1", args.end_line) : l10n.t("lines {0}-end", args.start_line ?? "1");
    const how = [args.use_regex === "true" && l10n.t("regex"), args.ignore_case === "true" && l10n.t("ignore case"), lines].filter(Boolean).join(", ");
    const heading = { icon: "edit" as const, title: said(status, editing()), target: args.path, link: linkTo(args.path) };
    if (args.search === undefined && args.replace === undefined) return view(heading, fieldsBody([[l10n.t("match"), how]]));
    // An empty replacement deletes the matches: only removed lines.
    const hunk = { ...(how && { label: how }), removed: args.search === undefined ? [] : toLines(args.search), added: args.replace ? toLines(args.replace) : [] };
    return view(heading, { kind: "diff", hunks: [hunk] });
  },
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    if (args.search === "") return toolError("invalid_args", "search is empty; give the text (or pattern) to find.");
    // Lines are matched in "\n" form whatever the file uses, so a search written with "\n" finds CRLF text.
    const search = args.search.replace(/\r\n/g, "\n");
    const replace = args.replace.replace(/\r\n/g, "\n");
    let pattern: RegExp;
    try {
      pattern = new RegExp(args.use_regex ? search : escapeRegex(search), `gm${args.ignore_case ? "i" : ""}`);
    } catch (err) {
      return toolError(
        "invalid_args",
        `search is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}. Fix the pattern, or set use_regex to false to search for the text as written.`,
      );
    }

    const before = await readTextFile(context, target);
    if (isOutcome(before)) return before;
    if (!before) return toolError("not_found", `${target.display} does not exist. Check the path with list_files.`);
    const replacement = replaceIn(before, pattern, replace, args.use_regex === true, args, target.display);
    if (isOutcome(replacement)) return replacement;
    const { after, occurrences, within: range } = replacement;
    // Without a line range the same replacement is made again if the file changes while this waits
    // (see WriteGuard); line numbers may then point elsewhere, so a ranged one is refused instead.
    const ranged = args.start_line !== undefined || args.end_line !== undefined;
    const remake = ranged
      ? undefined
      : (current: TextFile) => {
          const again = replaceIn(current, pattern, replace, args.use_regex === true, args, target.display);
          return isOutcome(again) ? again : again.after;
        };
    const edit = await proposeEdit(context, { target, before, after, tool: "search_and_replace", ...(remake && { remake }) });
    if (!edit.applied) return edit.outcome;
    return { kind: "result", text: `Replaced ${occurrences} in ${target.display}${range}.${edit.note}` };
  },
});

/** `pattern` replaced within the line range, in the file's conventions; an error outcome when nothing matches or changes. */
function replaceIn(
  before: TextFile,
  pattern: RegExp,
  replace: string,
  useRegex: boolean,
  range: { start_line?: number; end_line?: number },
  display: string,
): { after: string; occurrences: string; within: string } | ToolOutcome {
  const text = before.text.replace(/\r\n/g, "\n");
  const lines = text.split("\n");
  const total = text.endsWith("\n") ? lines.length - 1 : lines.length;
  const start = range.start_line ?? 1;
  const end = Math.min(range.end_line ?? total, total);
  if (start > total) return toolError("invalid_args", `${display} has ${total} lines; start_line ${start} is past the end.`);
  if (end < start) return toolError("invalid_args", `end_line ${range.end_line} is before start_line ${start}.`);

  // Only the chosen lines are searched: a match cannot reach outside the range.
  const head = lines.slice(0, start - 1);
  const region = lines.slice(start - 1, end).join("\n");
  const tail = lines.slice(end);
  const count = [...region.matchAll(pattern)].length;
  // A regex replacement keeps String.replace's $1, $& …; literal text is inserted as written.
  const replaced = useRegex ? region.replace(pattern, replace) : region.replace(pattern, () => replace);
  const within = range.start_line !== undefined || range.end_line !== undefined ? ` within lines ${start}-${end}` : "";
  if (count === 0) {
    const hint = useRegex ? "Check the pattern" : "Check the exact text (spaces, indentation, case), set ignore_case, or use use_regex";
    return toolError("no_match", `no match for the search in ${display}${within}; the file is unchanged. ${hint}; read_file shows the current content.`);
  }
  const after = [...head, replaced, ...tail].join("\n");
  const occurrences = `${count} ${count === 1 ? "occurrence" : "occurrences"}`;
  if (after === text) return { kind: "result", text: `Found ${occurrences} in ${display}${within}, but the replacement is the same text; the file is unchanged.` };
  return { after: encodeLike(before, after), occurrences, within };
}
