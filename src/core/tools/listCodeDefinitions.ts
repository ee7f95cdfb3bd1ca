import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { ignoreRulesOf } from "../workspace/ignore";
import { defineTool, toolError, type ToolContext } from "./defineTool";
import { p } from "./params";
import { linkTo, said, view } from "./present";
import { resolvePath } from "./paths";
import { grammarFor, SUPPORTED_EXTENSIONS } from "./treeSitter/languages";
import { findDefinitions } from "./treeSitter/definitions";

export const MAX_FILES = 50;
/** Larger files are generated or vendored more often than not, and parse slowly. */
const MAX_FILE_BYTES = 1024 * 1024;

export const listCodeDefinitionsTool = defineTool({
  name: "list_code_definition_names",
  group: "read",
  description: `List the classes, functions, methods, interfaces and types defined in a source file, or in the files directly inside a folder (not its subfolders; up to ${MAX_FILES} files), each with its line number. A quick map of code before reading it. Languages: TypeScript, JavaScript, Python, Go, Rust, Java, C, C++, C#, Ruby, PHP.`,
  params: {
    path: p.string("A source file, or a folder whose top-level source files to list, relative to the workspace"),
  },
  approval: (args) => ({ summary: l10n.t("List definitions in {0}", args.path), paths: [args.path] }),
  present(args, status) {
    const verbs = {
      wants: () => l10n.t("Kiln wants to list the definitions in {0}", TARGET_SLOT),
      doing: () => l10n.t("Kiln is listing the definitions in {0}", TARGET_SLOT),
      did: () => l10n.t("Kiln listed the definitions in {0}", TARGET_SLOT),
      denied: () => l10n.t("Kiln was not allowed to list the definitions in {0}", TARGET_SLOT),
      failed: () => l10n.t("Kiln could not list the definitions in {0}", TARGET_SLOT),
    };
    return view({ icon: "symbol-class", title: said(status, verbs), target: args.path, link: linkTo(args.path) });
  },
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    const stat = await context.fs.stat(target.absolute);
    if (!stat) return toolError("not_found", `${target.display} does not exist.`);
    const rules = ignoreRulesOf(context);
    if (rules.isHiddenFromAgent(target.absolute, stat.type === "directory")) return toolError("ignored", `${target.display} is hidden from Kiln by .kilocodeignore.`);
    if (stat.type === "file") {
      if (!grammarFor(target.absolute)) {
        return toolError("unsupported", `${target.display} is not a supported source file (supported: ${SUPPORTED_EXTENSIONS.join(" ")}). Read it with read_file instead.`);
      }
      if (stat.size > MAX_FILE_BYTES) return toolError("too_large", `${target.display} is ${stat.size} bytes, over the ${MAX_FILE_BYTES}-byte limit; use search_files to find definitions in it.`);
      return { kind: "result", text: await describeFile(target.absolute, target.display, context) };
    }
    if (stat.type !== "directory") return toolError("wrong_type", `${target.display} is neither a file nor a folder.`);

    const entries = (await context.fs.readDirectory(target.absolute))
      .filter((e) => e.type === "file" && grammarFor(e.name) !== undefined)
      .map((e) => e.name)
      .sort();
    const sources = entries.filter((name) => !rules.isIgnored(`${target.absolute}/${name}`, false));
    if (sources.length === 0) {
      return { kind: "result", text: `No source files directly in ${target.display} (supported: ${SUPPORTED_EXTENSIONS.join(" ")}). Give a subfolder or a file.` };
    }
    const parts: string[] = [];
    for (const name of sources.slice(0, MAX_FILES)) {
      if (context.signal.aborted) return { kind: "result", text: "Cancelled." };
      const absolute = `${target.absolute}/${name}`;
      const display = target.display === "." ? name : `${target.display}/${name}`;
      const size = (await context.fs.stat(absolute))?.size ?? 0;
      parts.push(size > MAX_FILE_BYTES ? `${display}\n(skipped: ${size} bytes, over the ${MAX_FILE_BYTES}-byte limit)` : await describeFile(absolute, display, context));
    }
    if (sources.length > MAX_FILES) {
      parts.push(`[Listed ${MAX_FILES} of ${sources.length} source files. Give a single file as path to see the others.]`);
    }
    return { kind: "result", text: parts.join("\n\n") };
  },
});

async function describeFile(absolute: string, display: string, context: ToolContext): Promise<string> {
  const grammar = grammarFor(absolute)!;
  const source = new TextDecoder().decode(await context.fs.readFile(absolute));
  const definitions = await findDefinitions(grammar, source);
  if (definitions.length === 0) return `${display}\n(no definitions found)`;
  const width = String(definitions[definitions.length - 1]!.line).length;
  return [display, ...definitions.map((d) => `${String(d.line).padStart(width)} | ${d.text}`)].join("\n");
}
