import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { statSync } from "node:fs";
import { join } from "node:path";
import { ignoreRulesOf } from "../workspace/ignore";
import { defineTool, toolError, type ToolOutcome } from "./defineTool";
import { p } from "./params";
import { fieldsBody, linkTo, said, view } from "./present";
import { resolvePath } from "./paths";
import { rgText, ripgrepPath, runRipgrep, type RgMessage } from "./ripgrep";

export const MAX_MATCHES = 300;
const MAX_LINE_CHARS = 250;
/** Folders never worth searching, even where no .gitignore says so. */
const SKIPPED_GLOBS = ["!.git", "!node_modules", "!.hg", "!.svn"];

interface Line {
  number: number;
  text: string;
  match: boolean;
}

/** Rust's regex engine has no look-around or backreferences; PCRE2 (built into this rg) has. */
const NEEDS_PCRE2 = /look-?around|look-?ahead|look-?behind|backreferences? (is|are) not supported/i;

export const searchFilesTool = defineTool({
  name: "search_files",
  group: "read",
  description: `Search file contents with a regular expression (Rust regex syntax, as ripgrep uses; look-around works too). Shows each matching line with one line of context before and after, grouped by file, up to ${MAX_MATCHES} matches. Files left out by .gitignore are not searched.`,
  params: {
    path: p.string("Folder (or file) to search in, relative to the workspace; searched recursively"),
    regex: p.string("Regular expression to look for, e.g. `function\\s+parse\\w*`", { raw: true }),
    file_pattern: p.string("Glob of the files to search, e.g. `*.ts` or `src/**/*.{js,jsx}`; default all files", { optional: true }),
  },
  approval: (args) => ({
    summary: args.file_pattern ? l10n.t("Search {0} for /{1}/ in {2}", args.path, args.regex, args.file_pattern) : l10n.t("Search {0} for /{1}/", args.path, args.regex),
    paths: [args.path],
  }),
  present(args, status) {
    return view(
      {
        icon: "search",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to search {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is searching {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln searched {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to search {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not search {0}", TARGET_SLOT),
        }),
        target: args.path,
        link: linkTo(args.path),
      },
      fieldsBody(
        [
          [l10n.t("regex"), args.regex],
          [l10n.t("in"), args.path],
          [l10n.t("files"), args.file_pattern],
        ],
        true,
      ),
    );
  },
  async execute(args, context) {
    if (args.regex === "") return toolError("invalid_args", "<regex> is empty; give the pattern to search for.");
    const root = resolvePath(context.cwd, args.path);
    const stat = await context.fs.stat(root.absolute);
    if (!stat) return toolError("not_found", `${root.display} does not exist. Use list_files to see what is there.`);
    // rg would wait on a FIFO for a writer that never comes, and a device may never end.
    if (stat.type === "other") return toolError("wrong_type", `${root.display} is not a regular file (a device, socket or FIFO); it cannot be searched.`);
    const rules = ignoreRulesOf(context);
    if (rules.isHiddenFromAgent(root.absolute, stat.type === "directory")) return toolError("ignored", `${root.display} is hidden from Kiln by .kilocodeignore.`);
    const rg = ripgrepPath();
    if (!rg) return toolError("unavailable", "ripgrep is not available in this installation, so search_files cannot run. Use list_files and read_file instead.");

    const flags = ["--context", "1", "--no-require-git", "--hidden", "--no-config", ...SKIPPED_GLOBS.flatMap((g) => ["--glob", g])];
    if (args.file_pattern) flags.push("--glob", args.file_pattern);
    const kilocodeIgnore = join(context.cwd, ".kilocodeignore");
    // rg matches an --ignore-file's patterns relative to its working folder: it runs in the workspace root.
    // Only a regular file: rg would wait forever on a FIFO of that name (the ignore rules skip one too).
    if (statSync(kilocodeIgnore, { throwIfNoEntry: false })?.isFile()) flags.push("--ignore-file", kilocodeIgnore);
    const target = root.outsideWorkspace ? root.absolute : root.display;

    // rg lets a --glob override its --ignore-file, and applies no rules to the folder it starts in:
    // .kilocodeignore is checked here as well, before a hidden file can count towards the cap.
    const hidden = new Map<string, boolean>();
    const isHidden = (path: string): boolean => {
      let verdict = hidden.get(path);
      if (verdict === undefined) hidden.set(path, (verdict = rules.isHiddenFromAgent(resolvePath(context.cwd, path).absolute, false)));
      return verdict;
    };
    let files = new Map<string, Line[]>();
    let matches = 0;
    let more = false;
    const onMessage = (message: RgMessage): boolean => {
      if (message.type !== "match" && message.type !== "context") return true;
      if (message.type === "match" && matches === MAX_MATCHES) {
        more = true;
        return false;
      }
      const path = displayPath(rgText(message.data.path));
      if (isHidden(path)) return true;
      let lines = files.get(path);
      if (!lines) files.set(path, (lines = []));
      const text = rgText(message.data.lines).replace(/\r?\n$/, "");
      for (const [k, part] of text.split("\n").entries()) {
        lines.push({ number: (message.data.line_number ?? 0) + k, text: part, match: message.type === "match" });
      }
      if (message.type === "match") matches++;
      return true;
    };
    const search = async (pcre2: boolean) => {
      files = new Map();
      matches = 0;
      more = false;
      const regexFlags = pcre2 ? ["--pcre2"] : [];
      return runRipgrep(rg, [...flags, ...regexFlags, "--regexp", args.regex, "--", target], { cwd: context.cwd, signal: context.signal, onMessage });
    };
    let run = await search(false);
    if (run.code === 2 && matches === 0 && NEEDS_PCRE2.test(run.stderr)) run = await search(true);
    if (context.signal.aborted) return { kind: "result", text: "Cancelled." };
    const where = `${root.display === "." ? "the workspace" : root.display}${args.file_pattern ? ` (files matching ${args.file_pattern})` : ""}`;
    if (run.stuckOnFifo) return toolError("failed", stuckOnFifo(where, files, matches));
    if (run.code === 2 && matches === 0) return explainFailure(run.stderr, args.file_pattern);

    if (files.size === 0) return { kind: "result", text: `No matches for /${args.regex}/ in ${where}.` };
    return { kind: "result", text: format(files, where, matches, more) };
  },
});

/** rg prints paths as it walked them: `./src/a.ts` from ".", backslashes on Windows. */
function displayPath(path: string): string {
  const slashed = process.platform === "win32" ? path.replace(/\\/g, "/") : path;
  return slashed.startsWith("./") ? slashed.slice(2) : slashed;
}

/** rg stopped at a FIFO named .gitignore, .ignore or .rgignore: say so, with what it found before. */
function stuckOnFifo(where: string, files: Map<string, Line[]>, matches: number): string {
  const why = `the search of ${where} stopped at a FIFO (named pipe) called .gitignore, .ignore or .rgignore, in that folder or above it: ripgrep opens those to read ignore rules, and a FIFO never ends.`;
  // rg reads ignore files only while walking folders, so one file given as the path is searched.
  const advice = "Search single files (give one file as path), or ask the user to remove the FIFO.";
  if (matches === 0) return `${why} ${advice}`;
  return `${why} ${advice} What it found before:\n\n${format(files, where, matches, false)}`;
}

function explainFailure(stderr: string, filePattern: string | undefined): ToolOutcome {
  const detail = stderr.replace(/^rg: /gm, "").trim() || "ripgrep failed without saying why";
  if (/regex parse error|error parsing regex|regex could not be compiled|PCRE2/i.test(detail)) {
    return toolError("invalid_args", `<regex> is not a valid regular expression (ripgrep uses Rust regex syntax; escape literal ( ) [ ] { } . * + ? | \\ with a backslash):\n${detail}`);
  }
  if (filePattern && /glob/i.test(detail)) return toolError("invalid_args", `<file_pattern> "${filePattern}" is not a valid glob:\n${detail}`);
  return toolError("failed", `the search failed:\n${detail}`);
}

function format(files: Map<string, Line[]>, where: string, matches: number, more: boolean): string {
  const count = `${matches} match${matches === 1 ? "" : "es"} in ${files.size} file${files.size === 1 ? "" : "s"}`;
  const head = more ? `Showing the first ${count} in ${where}; there are more.` : `Found ${count} in ${where}.`;
  const out = [`${head} Matching lines are shown as \`line:text\`, context lines as \`line-text\`.`];
  const paths = [...files.keys()].sort();
  for (const path of paths) {
    out.push("", `# ${path}`);
    let previous: number | undefined;
    for (const line of files.get(path)!) {
      if (previous !== undefined && line.number > previous + 1) out.push("--");
      const text = line.text.length > MAX_LINE_CHARS ? `${line.text.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]` : line.text;
      out.push(`${line.number}${line.match ? ":" : "-"}${text}`);
      previous = line.number;
    }
  }
  if (more) out.push("", `[Stopped at ${MAX_MATCHES} matches. Narrow the search: a more specific regex, a subfolder as path, or a file_pattern.]`);
  return out.join("\n");
}
