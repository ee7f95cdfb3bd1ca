import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import type { LanguageServices, RenameFileEdit, SymbolPosition, TextPosition } from "../ports/languageServices";
import { ignoreRulesOf } from "../workspace/ignore";
import { defineTool, toolError, type ToolContext, type ToolOutcome } from "./defineTool";
import { encodeLike, isOutcome, proposeEdit, readTextFile, type TextFile } from "./fileEdit";
import { p } from "./params";
import { resolvePath, type ResolvedPath } from "./paths";
import { linkTo, said, view } from "./present";
import { positionFields } from "./codeNavigation";
import { askAtSymbol, count } from "./symbolLookup";

/** One file of the rename, worked out: the file as it is and as it will be. */
interface FileRename {
  target: ResolvedPath;
  before: TextFile;
  after: string;
  changes: number;
}

export const renameSymbolTool = defineTool({
  name: "rename_symbol",
  group: "edit",
  description:
    "Rename a symbol everywhere it is used, as the editor's language server works it out (the symbol itself, not other things of the same name; imports and re-exports included): it is renamed where it is declared, wherever you name it. Give the file and line where the symbol is written, its name as written there, and the new name. Each changed file is reviewed like any edit, file by file; the result says which files changed.",
  params: {
    path: p.string("The file the symbol is written in, relative to the workspace"),
    line: p.integer("The line (1-based) where the symbol is written", { min: 1 }),
    symbol: p.string("The name to rename, as written on that line"),
    new_name: p.string("The new name"),
  },
  approval: (args) => ({ summary: l10n.t("Rename {0} to {1} ({2}:{3})", args.symbol, args.new_name, args.path, args.line), paths: [args.path], reviewed: true }),
  present(args, status) {
    return view(
      {
        icon: "edit",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to rename {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is renaming {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln renamed {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to rename {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not rename {0}", TARGET_SLOT),
        }),
        target: args.symbol?.trim(),
        code: true,
        link: linkTo(args.path, args.line),
      },
      positionFields(args, [[l10n.t("new name"), args.new_name?.trim()]]),
    );
  },
  async execute(args, context) {
    const newName = args.new_name.trim();
    if (newName === "" || /\s/.test(newName)) return toolError("invalid_args", `<new_name> must be one name without spaces; got "${args.new_name}".`);
    const asked = await askAtSymbol(context, "rename_symbol", args, async (services, at) => {
      if (!services.rename) throw new Error("this editor cannot rename");
      // Renamed where it is declared: at an import or a use, some servers (TypeScript) rename only
      // there, adding a local alias, where the model means the symbol everywhere.
      return services.rename(await declaration(services, at, context), newName);
    });
    if (!asked.ok) return asked.outcome;
    const { target, answer } = asked.value;
    if (newName === target.symbol) return toolError("invalid_args", `\`${target.symbol}\` already has that name.`);
    if (!answer.result.ok) return toolError("unsupported", `the ${answer.language} language server will not rename \`${target.symbol}\` at ${target.where}: ${answer.result.reason}`);
    const edits = answer.result.files.filter((f) => f.edits.length > 0);
    if (edits.length === 0) return toolError("no_match", `the ${answer.language} language server found nothing to rename at ${target.where}. Check the line and the name, or use search_and_replace.`);
    const planned = await plan(edits, context, target.at.path);
    if (isOutcome(planned)) return planned;
    return applyRenames(planned, context, `\`${target.symbol}\` to \`${newName}\``);
  },
});

/** Where the symbol is declared, when that is one place in the workspace Kiln may see; else where it was asked. */
async function declaration(services: LanguageServices, at: SymbolPosition, context: ToolContext): Promise<SymbolPosition> {
  const found = (await services.definitions(at)).result;
  if (found.length !== 1) return at;
  const home = resolvePath(context.cwd, found[0]!.path);
  if (home.outsideWorkspace || ignoreRulesOf(context).isHiddenFromAgent(home.absolute)) return at;
  return { path: home.absolute, position: found[0]!.range.start };
}

/**
 * Every file's new text, before anything is asked or written: a rename that would reach outside
 * the workspace, into a file hidden by .kilocodeignore, or into a file that cannot be edited safely
 * changes nothing at all (half a rename breaks the code). The file asked about comes first.
 */
async function plan(files: readonly RenameFileEdit[], context: ToolContext, asked: string): Promise<FileRename[] | ToolOutcome> {
  const rules = ignoreRulesOf(context);
  const ordered = [...files].sort((a, b) => Number(b.path === asked) - Number(a.path === asked) || a.path.localeCompare(b.path));
  const out: FileRename[] = [];
  for (const file of ordered) {
    const target = resolvePath(context.cwd, file.path);
    if (target.outsideWorkspace)
      return toolError("unsupported", `the rename would change ${target.display}, outside the workspace; nothing was changed. Rename by hand what is inside it, or ask the user.`);
    if (rules.isHiddenFromAgent(target.absolute))
      return toolError("ignored", `the rename would change ${target.display}, which is hidden from Kiln by .kilocodeignore; nothing was changed. Ask the user.`);
    const before = await readTextFile(context, target);
    if (before === undefined) return toolError("not_found", `the rename would change ${target.display}, which does not exist any more; nothing was changed.`);
    if (isOutcome(before)) return before;
    const after = applyEdits(before.text, file.edits);
    if (after === undefined)
      return toolError("conflict", `the language server's changes to ${target.display} overlap or fall outside the file (it may have changed meanwhile); nothing was changed. Try again.`);
    out.push({ target, before, after: encodeLike(before, after), changes: file.edits.length });
  }
  return out;
}

/** The text with each range replaced, or undefined where ranges overlap or fall outside it. */
export function applyEdits(text: string, edits: RenameFileEdit["edits"]): string | undefined {
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
  const offset = (at: TextPosition): number | undefined => {
    const start = starts[at.line];
    if (start === undefined) return undefined;
    const end = at.line + 1 < starts.length ? starts[at.line + 1]! : text.length;
    return start + at.character <= end ? start + at.character : undefined;
  };
  const spans = edits.map((e) => ({ from: offset(e.range.start), to: offset(e.range.end), text: e.newText }));
  if (spans.some((s) => s.from === undefined || s.to === undefined || s.to < s.from)) return undefined;
  const sorted = (spans as { from: number; to: number; text: string }[]).sort((a, b) => b.from - a.from);
  let out = text;
  let limit = text.length;
  for (const span of sorted) {
    if (span.to > limit) return undefined;
    out = out.slice(0, span.from) + span.text + out.slice(span.to);
    limit = span.from;
  }
  return out;
}

/**
 * Each file through the edit review, one decision each (the diff editor shows it, the card asks;
 * changes may be discarded one by one). The first rejection stops the rename: the model is told
 * which files now have the new name and which do not.
 */
async function applyRenames(files: readonly FileRename[], context: ToolContext, what: string): Promise<ToolOutcome> {
  const done: string[] = [];
  const notes: string[] = [];
  for (const [i, file] of files.entries()) {
    const display = file.target.display;
    // A decision of its own for each file, asked when its diff is ready.
    const approve = context.approve && ((details?: Parameters<NonNullable<ToolContext["approve"]>>[0]) => context.approve!({ ...details, part: display }));
    const applied = await proposeEdit({ ...context, approve }, { target: file.target, before: file.before, after: file.after, tool: "rename_symbol", withoutProblems: true });
    if (!applied.applied) {
      const rest = files.slice(i).map((f) => f.target.display);
      if (done.length === 0 && applied.outcome.kind === "denied") return applied.outcome;
      const why =
        applied.outcome.kind === "denied"
          ? `the user rejected the change in ${display}${applied.outcome.feedback ? ` and said: ${applied.outcome.feedback}` : ""}`
          : `${display} could not be changed: ${applied.outcome.kind === "error" ? applied.outcome.message : "it was not written"}`;
      return {
        kind: "result",
        text: `Renamed ${what} in part: ${why}. Changed: ${done.join(", ")}. Not changed (they still use the old name): ${rest.join(", ")}. The code may not build until the names agree.${notes.join("")}`,
      };
    }
    done.push(`${display} (${count(file.changes, "change")})`);
    if (applied.note) notes.push(`\n${display}: ${applied.note.trim()}`);
  }
  return {
    kind: "result",
    text: `Renamed ${what}: ${count(
      files.reduce((n, f) => n + f.changes, 0),
      "change",
    )} in ${count(files.length, "file")}: ${done.join(", ")}.${notes.join("")}`,
  };
}
