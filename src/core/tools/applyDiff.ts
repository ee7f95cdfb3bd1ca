import * as l10n from "@vscode/l10n";
import { applySearchReplace, countBlocks, type BlockFailure, type BlockMatch } from "../edit";
import { defineTool, toolError, type ToolErrorReason } from "./defineTool";
import { isOutcome, proposeEdit, readTextFile, type TextFile } from "./fileEdit";
import { p } from "./params";
import { editing, linkTo, said, searchReplaceHunks, view } from "./present";
import { resolvePath } from "./paths";
import { plural } from "../../shared/plural";

const DESCRIPTION = `Change an existing file by replacing blocks of its lines. Each block:
<<<<<<< SEARCH
:start_line:12
-------
[lines copied exactly from the file, indentation included, without line numbers]
=======
[the lines that replace them]
>>>>>>> REPLACE
Put several blocks in one diff to make several changes to the file; their order does not matter, and either all apply or none does. Read the file first. SEARCH must match the file; include enough lines around the change that it matches one place only. :start_line: is the file line where SEARCH starts; it picks the place when the same lines occur more than once. An empty REPLACE deletes the lines. A content line that looks like a marker (=======) is written with a leading backslash. To create a file or rewrite it whole, use write_to_file.`;

/** What the model should know about how its blocks were placed, when it is not what it wrote. */
function notes(matches: readonly BlockMatch[]): string[] {
  const said: string[] = [];
  for (const m of matches) {
    const where = m.line === m.endLine ? `line ${m.line}` : `lines ${m.line}-${m.endLine}`;
    if (m.level === "whitespace") said.push(`Block ${m.block} matched ${where} only when whitespace was ignored; its new lines follow the file's indentation.`);
    else if (m.level === "fuzzy") said.push(`Block ${m.block} matched ${where} at ${Math.floor(m.similarity * 1000) / 10}% similarity, not exactly.`);
    // A hint a few lines off is normal; far off means the model's idea of the file is out of date.
    if (m.hint !== undefined && Math.abs(m.hint - m.line) > 3) said.push(`Block ${m.block} was found at line ${m.line}, not at its :start_line: ${m.hint}.`);
  }
  return said;
}

export const applyDiffTool = defineTool({
  name: "apply_diff",
  group: "edit",
  description: DESCRIPTION,
  params: {
    path: p.string("Path of the file to change, relative to the workspace"),
    diff: p.string("One or more SEARCH/REPLACE blocks", { raw: true }),
  },
  approval: (args) => {
    const blocks = countBlocks(args.diff);
    return { summary: blocks === 1 ? l10n.t("Edit {0} (1 change)", args.path) : l10n.t("Edit {0} ({1} changes)", args.path, blocks), paths: [args.path], reviewed: true };
  },
  present(args, status) {
    const hunks = args.diff === undefined ? [] : searchReplaceHunks(args.diff);
    return view({ icon: "edit", title: said(status, editing()), target: args.path, link: linkTo(args.path) }, hunks.length > 0 ? { kind: "diff", hunks } : undefined);
  },
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    const before = await readTextFile(context, target);
    if (isOutcome(before)) return before;
    if (!before) {
      return toolError(
        "not_found",
        `${target.display} does not exist. apply_diff changes existing files; create a file with write_to_file. (Check the path with list_files if you expected it to exist.)`,
      );
    }
    // The engine keeps the file's own line endings, mixed ones too, and its BOM; encodeLike would
    // make every ending the first one's.
    const original = (before.bom ? "\uFEFF" : "") + before.text;
    const result = applySearchReplace(original, args.diff, { fuzzyThreshold: context.fuzzyThreshold });
    if (!result.ok) return toolError(diffFailure(result.failures), `${target.display} was not changed: ${result.error}`);
    // Another task or the user may change the file while this edit waits: its blocks are then looked
    // for again in the file as it is when written.
    const remake = (current: TextFile) => {
      const again = applySearchReplace((current.bom ? "\uFEFF" : "") + current.text, args.diff, { fuzzyThreshold: context.fuzzyThreshold });
      return again.ok ? again.content : toolError(diffFailure(again.failures), again.error);
    };
    const edit = await proposeEdit(context, { target, before, after: result.content, tool: "apply_diff", remake });
    if (!edit.applied) return edit.outcome;
    const said = notes(result.matches);
    return { kind: "result", text: [`Applied ${plural(result.applied, "block")} to ${target.display}.`, ...said].join(" ") + edit.note };
  },
});

/** A diff that could not be read is the call's fault; one whose blocks are not in the file found no match. */
function diffFailure(failures: readonly BlockFailure[]): ToolErrorReason {
  return failures.every((f) => f.reason === "malformed") ? "invalid_args" : "no_match";
}
