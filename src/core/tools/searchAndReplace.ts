import { defineTool } from "./defineTool";
import { encodeLike, isOutcome, proposeEdit, readTextFile } from "./fileEdit";
import { p } from "./params";
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
  approval: (args) => ({ summary: `Replace ${args.use_regex ? "matches of a pattern" : "text"} in ${args.path}`, paths: [args.path], reviewed: true }),
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    if (args.search === "") return { kind: "result", text: "Error: search is empty; give the text (or pattern) to find." };
    // Lines are matched in "\n" form whatever the file uses, so a search written with "\n" finds CRLF text.
    const search = args.search.replace(/\r\n/g, "\n");
    const replace = args.replace.replace(/\r\n/g, "\n");
    let pattern: RegExp;
    try {
      pattern = new RegExp(args.use_regex ? search : escapeRegex(search), `gm${args.ignore_case ? "i" : ""}`);
    } catch (err) {
      return { kind: "result", text: `Error: search is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}. Fix the pattern, or set use_regex to false to search for the text as written.` };
    }

    const before = await readTextFile(context, target);
    if (isOutcome(before)) return before;
    if (!before) return { kind: "result", text: `Error: ${target.display} does not exist. Check the path with list_files.` };
    const text = before.text.replace(/\r\n/g, "\n");
    const lines = text.split("\n");
    const total = text.endsWith("\n") ? lines.length - 1 : lines.length;
    const start = args.start_line ?? 1;
    const end = Math.min(args.end_line ?? total, total);
    if (start > total) return { kind: "result", text: `Error: ${target.display} has ${total} lines; start_line ${start} is past the end.` };
    if (end < start) return { kind: "result", text: `Error: end_line ${args.end_line} is before start_line ${start}.` };

    // Only the chosen lines are searched: a match cannot reach outside the range.
    const head = lines.slice(0, start - 1);
    const region = lines.slice(start - 1, end).join("\n");
    const tail = lines.slice(end);
    const count = [...region.matchAll(pattern)].length;
    // A regex replacement keeps String.replace's $1, $& …; literal text is inserted as written.
    const replaced = args.use_regex ? region.replace(pattern, replace) : region.replace(pattern, () => replace);
    const range = args.start_line !== undefined || args.end_line !== undefined ? ` within lines ${start}-${end}` : "";
    if (count === 0) {
      const hint = args.use_regex ? "Check the pattern" : "Check the exact text (spaces, indentation, case), set ignore_case, or use use_regex";
      return { kind: "result", text: `Error: no match for the search in ${target.display}${range}; the file is unchanged. ${hint}; read_file shows the current content.` };
    }
    const after = [...head, replaced, ...tail].join("\n");
    const occurrences = `${count} ${count === 1 ? "occurrence" : "occurrences"}`;
    if (after === text) return { kind: "result", text: `Found ${occurrences} in ${target.display}${range}, but the replacement is the same text; the file is unchanged.` };

    const edit = await proposeEdit(context, { target, before, after: encodeLike(before, after), tool: "search_and_replace" });
    if (!edit.applied) return edit.outcome;
    return { kind: "result", text: `Replaced ${occurrences} in ${target.display}${range}.${edit.note}` };
  },
});
