import type { FileSystem } from "../ports/fileSystem";
import { errorText } from "../tools/defineTool";
import { listFilesTool } from "../tools/listFiles";
import { resolveRealPath } from "../tools/paths";
import { readFileTool } from "../tools/readFile";
import { formatSize } from "../tools/fileFormats";
import { ignoreRulesOf, type IgnoreRules } from "../workspace/ignore";
import { gitChanges, gitCommit } from "./git";
import { findMentions, type Mention } from "./parse";
import { fetchAsMarkdown, type FetchOptions } from "./url";
import { untrusted } from "../prompts/untrusted";

/** A mentioned file larger than this is not pasted in; the model can read parts with read_file. */
export const MENTION_MAX_FILE_BYTES = 512 * 1024;
/** Mentions resolved per message: each may add a whole file or page. */
export const MAX_MENTIONS = 20;

/** What only the host knows about. */
export interface MentionHost {
  /** The editor's current diagnostics as text; "" when there are none. */
  problems(): string | Promise<string>;
  /** The latest output of Kiln's terminals; undefined when nothing ran yet. */
  terminalOutput(): string | undefined;
}

export interface MentionContext {
  cwd: string;
  fs: FileSystem;
  ignore?: IgnoreRules;
  host?: MentionHost;
  /** kiln.mentions.allowPrivateUrls */
  allowPrivateUrls: boolean;
  maxFileBytes?: number;
  readFileMaxLines?: number;
  fetch?: Omit<FetchOptions, "allowPrivate">;
  signal?: AbortSignal;
}

/**
 * The message as the model gets it: the user's text, then one block per mention with what it points
 * at. Nothing is added when the text has no mentions. A mention that cannot be resolved gets a
 * block with the reason, so the model (and the user, in its answer) knows why it is missing.
 */
export async function resolveMentions(text: string, context: MentionContext): Promise<string> {
  const mentions = findMentions(text);
  if (mentions.length === 0) return text;
  const blocks: string[] = [];
  for (const mention of mentions.slice(0, MAX_MENTIONS)) blocks.push(await resolveOne(mention, context));
  if (mentions.length > MAX_MENTIONS) blocks.push(`[Only the first ${MAX_MENTIONS} mentions were resolved; ${mentions.length - MAX_MENTIONS} more were left out.]`);
  return `${text}\n\n${blocks.join("\n\n")}`;
}

async function resolveOne(mention: Mention, context: MentionContext): Promise<string> {
  switch (mention.kind) {
    case "file":
      return `<file_content path="${attr(mention.path)}">\n${await fileContent(mention.path, context)}\n</file_content>`;
    case "folder":
      return `<folder_content path="${attr(mention.path)}/">\n${await folderContent(mention.path, context)}\n</folder_content>`;
    case "problems": {
      const problems = context.host ? (await context.host.problems()).trim() : "";
      return `<workspace_diagnostics>\n${context.host ? problems || "No problems detected." : "Error: this host has no diagnostics."}\n</workspace_diagnostics>`;
    }
    case "terminal": {
      const output = context.host?.terminalOutput();
      return `<terminal_output>\n${output?.trim() ? output.trimEnd() : "No terminal output yet: Kiln's terminals have not run a command in this window."}\n</terminal_output>`;
    }
    case "git-changes":
      return `<git_working_state>\n${await orError(() => gitChanges(context.cwd))}\n</git_working_state>`;
    case "commit":
      return `<git_commit hash="${mention.sha}">\n${await orError(() => gitCommit(context.cwd, mention.sha))}\n</git_commit>`;
    case "url":
      return `<url_content url="${attr(mention.url)}">\n${await urlContent(mention.url, context)}\n</url_content>`;
  }
}

async function orError(run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (err) {
    return `Error: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Where a mentioned path points, refused outside the workspace (links included) and when hidden. */
async function target(path: string, isFolder: boolean, context: MentionContext, rules: IgnoreRules): Promise<{ absolute: string } | { error: string }> {
  const resolved = await resolveRealPath(context.cwd, path);
  if (resolved.outsideWorkspace) return { error: `${path} is outside the workspace; mentions only reach files in it.` };
  if (rules.isHiddenFromAgent(resolved.absolute, isFolder)) return { error: `${path} is hidden from Kiln by .kilocodeignore, so its content was not included.` };
  return { absolute: resolved.absolute };
}

async function fileContent(path: string, context: MentionContext): Promise<string> {
  const rules = ignoreRulesOf(context);
  const found = await target(path, false, context, rules);
  if ("error" in found) return `Error: ${found.error}`;
  const stat = await context.fs.stat(found.absolute);
  if (!stat) return `Error: ${path} does not exist.`;
  if (stat.type === "directory") return `Error: ${path} is a folder; mention it as @/${path}/ to list it.`;
  const max = context.maxFileBytes ?? MENTION_MAX_FILE_BYTES;
  if (stat.size > max) return `Error: ${path} is ${formatSize(stat.size)}, over the ${formatSize(max)} limit for a mention; read the parts you need with read_file.`;
  // read_file's own reading: line numbers, a line cap with a note, PDFs and binaries handled.
  const read = await readFileTool.execute({ path }, toolContext(context, rules));
  if (read.kind === "error") return errorText(read.message);
  if (read.kind !== "result") return `Error: ${path} could not be read.`;
  if (read.images?.length) return `Error: ${path} is an image; attach it to the message (paste or drop) instead of mentioning it.`;
  return read.text;
}

async function folderContent(path: string, context: MentionContext): Promise<string> {
  const rules = ignoreRulesOf(context);
  const found = await target(path, true, context, rules);
  if ("error" in found) return `Error: ${found.error}`;
  const listed = await listFilesTool.execute({ path, recursive: false }, toolContext(context, rules));
  if (listed.kind === "error") return errorText(listed.message);
  return listed.kind === "result" ? listed.text : `Error: ${path} could not be listed.`;
}

async function urlContent(url: string, context: MentionContext): Promise<string> {
  try {
    const page = await fetchAsMarkdown(url, { ...context.fetch, allowPrivate: context.allowPrivateUrls, signal: context.signal });
    const note = page.truncated ? "\n[The page was longer; only its start was read.]" : "";
    // Anyone can write a page: its text is data the system prompt tells the model not to obey.
    return `${page.markdown ? untrusted(`web:${page.url}`, page.markdown) : "(the page has no text)"}${note}`;
  } catch (err) {
    return `Error: ${url} was not fetched: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function toolContext(context: MentionContext, rules: IgnoreRules) {
  return { cwd: context.cwd, fs: context.fs, ignore: rules, signal: context.signal ?? new AbortController().signal, readFileMaxLines: context.readFileMaxLines };
}

function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
