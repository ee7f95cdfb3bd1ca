import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { isAbsolute, join, relative } from "node:path";
import { defineTool, toolError, type ToolContext } from "./defineTool";
import { decodeText, proposeEdit } from "./fileEdit";
import { fingerprint } from "../files/guardedWrite";
import { formatSize } from "./fileFormats";
import { p } from "./params";
import { fieldsBody, said, view } from "./present";
import { resolvePath, type ResolvedPath } from "./paths";
import { ignoreRulesOf } from "../workspace/ignore";

/** Past this many entries the count stops: the user learns it is a lot, and the walk stays quick. */
const MAX_COUNTED = 10_000;

/** Binary or large files are deleted without a text diff: one would be noise, the other huge. */
const MAX_DIFF_BYTES = 512 * 1024;

interface FolderCount {
  files: number;
  folders: number;
  /** Entries hidden from Kiln by .kilocodeignore: a recursive delete must not touch what it may not see. */
  hidden: string[];
  capped: boolean;
}

async function countFolder(context: ToolContext, root: string): Promise<FolderCount> {
  const rules = ignoreRulesOf(context);
  const count: FolderCount = { files: 0, folders: 0, hidden: [], capped: false };
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const entry of await context.fs.readDirectory(folder)) {
      if (count.files + count.folders >= MAX_COUNTED) {
        count.capped = true;
        return count;
      }
      const path = join(folder, entry.name);
      const isDirectory = entry.type === "directory";
      if (rules.isHiddenFromAgent(path, isDirectory) && count.hidden.length < 5) count.hidden.push(resolvePath(context.cwd, path).display);
      if (isDirectory) {
        count.folders++;
        pending.push(path);
      } else {
        count.files++;
      }
    }
  }
  return count;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

async function deleteFolder(target: ResolvedPath, recursive: boolean, context: ToolContext) {
  const count = await countFolder(context, target.absolute);
  const entries = count.files + count.folders;
  if (entries > 0 && !recursive) {
    return toolError(
      "conflict",
      `the folder ${target.display} is not empty (${plural(count.files, "file")}, ${plural(count.folders, "folder")}), so it was not deleted. Set recursive to true to delete it with everything in it, or delete what is in it first.`,
    );
  }
  if (count.hidden.length > 0) {
    return toolError("ignored", `${target.display} holds paths hidden from Kiln by .kilocodeignore (${count.hidden.join(", ")}); it was not deleted. Leave it alone or ask the user to delete it.`);
  }
  const contents = entries === 0 ? "an empty folder" : `${count.capped ? "more than " : ""}${plural(count.files, "file")} in ${plural(count.folders + 1, "folder")}`;
  const approve = context.approve ?? (async () => ({ approved: true }) as const);
  const decision = await approve({ reason: `Deletes the folder ${target.display}: ${contents}.` });
  if (!decision.approved) return { kind: "denied" as const, feedback: decision.feedback };
  await context.fs.delete(target.absolute, { recursive: entries > 0 });
  return { kind: "result" as const, text: `Deleted the folder ${target.display} (${contents}).` };
}

export const deleteFileTool = defineTool({
  name: "delete_file",
  group: "edit",
  description:
    "Delete a file, or a folder. A folder is deleted only when it is empty, unless recursive is true (then everything in it goes). The workspace folder itself cannot be deleted. Deleting needs its own approval.",
  params: {
    path: p.string("Path of the file or folder, relative to the workspace"),
    recursive: p.boolean("Delete a folder with everything in it (default false)", { optional: true }),
  },
  // Its own category: auto-approving edits does not auto-approve deleting.
  approval: (args) => ({ summary: args.recursive ? l10n.t("Delete {0} and everything in it", args.path) : l10n.t("Delete {0}", args.path), paths: [args.path], reviewed: true, category: "delete" }),
  present(args, status) {
    // No link: once done there is nothing to open.
    return view(
      {
        icon: "trash",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to delete {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is deleting {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln deleted {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to delete {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not delete {0}", TARGET_SLOT),
        }),
        target: args.path,
      },
      fieldsBody([[l10n.t("also"), args.recursive === "true" ? l10n.t("everything in it") : undefined]]),
    );
  },
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    // The workspace, or a folder holding it: that is never a cleanup step.
    const fromTarget = relative(target.absolute, context.cwd);
    const holdsWorkspace = !(fromTarget === ".." || fromTarget.startsWith("../") || fromTarget.startsWith("..\\") || isAbsolute(fromTarget));
    if (holdsWorkspace) {
      return toolError("invalid_args", `${target.display} is the workspace folder${fromTarget === "" ? "" : " or holds it"}; it cannot be deleted. Name the files or folders inside it to delete.`);
    }
    const stat = await context.fs.stat(target.absolute);
    if (!stat) return toolError("not_found", `${target.display} does not exist, so there is nothing to delete. Check the path with list_files.`);
    if (stat.type === "directory") return deleteFolder(target, args.recursive === true, context);
    if (stat.type !== "file") return toolError("wrong_type", `${target.display} is not a regular file or folder (a device, socket or FIFO); Kiln does not delete those.`);

    const bytes = stat.size <= MAX_DIFF_BYTES ? await context.fs.readFile(target.absolute) : undefined;
    const read = bytes && decodeText(target.absolute, bytes, await context.fs.encodingHint?.(target.absolute));
    if (read && read.ok) {
      // A text file goes through review like any edit: the user sees every line that goes.
      // Deleted only if nobody changed it while the deletion waited for approval.
      const edit = await proposeEdit(context, { target, before: { ...read.file, fingerprint: fingerprint(bytes) }, after: null, tool: "delete_file" });
      if (!edit.applied) return edit.outcome;
      return { kind: "result", text: `Deleted ${target.display}.` };
    }
    const approve = context.approve ?? (async () => ({ approved: true }) as const);
    const what = read ? (read.binary ? "binary, " : "encoding unknown, ") : "";
    const decision = await approve({ reason: `Deletes ${target.display} (${what}${formatSize(stat.size)}).` });
    if (!decision.approved) return { kind: "denied", feedback: decision.feedback };
    await context.fs.delete(target.absolute);
    return { kind: "result", text: `Deleted ${target.display} (${formatSize(stat.size)}).` };
  },
});
