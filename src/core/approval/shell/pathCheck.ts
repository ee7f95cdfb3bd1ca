/**
 * What the path-like words of a command reach: a prefix like `cat` or `ls` is allowed to look
 * inside the workspace, not at `/etc`, `~/.ssh`, `../other-project` or a link that leads there.
 */
import { isAbsolute, resolve } from "node:path";
import { pathCandidates, HARMLESS_FILE } from "../commands";
import { baseName } from "./options";
import type { CommandAnalysis, SimpleCommand } from "./analyze";

/**
 * Says why Kiln may not reach this absolute path unasked, or undefined when it may: a string for a
 * path outside the workspace, `hidden` for one the user hid from Kiln (which no sandbox hides).
 */
export type PathJudge = (absolute: string, written: string) => Promise<string | PathHidden | undefined>;
export interface PathHidden {
  problem: string;
  hidden: true;
}

/** Folders a line may `cd` into before a later command's relative path is resolved. */
const CHANGES_FOLDER = new Set(["cd", "pushd"]);

/** At most this many words are looked up on disk; a longer line asks. */
const MAX_PATHS = 64;

/**
 * Sets `pathProblem` on each command with a word that reaches where the user did not allow. Each
 * relative path is resolved from the task's folder and from every folder the line `cd`s into (the
 * order of a chain is not always the order it runs in), and must be fine from all of them.
 */
export async function checkCommandPaths(analysis: CommandAnalysis, cwd: string, judge: PathJudge): Promise<void> {
  const bases = [cwd];
  for (const command of analysis.commands) {
    const [name, target] = command.words;
    if (!name?.value || !CHANGES_FOLDER.has(baseName(name.value))) continue;
    if (target?.value === undefined || target.value === "-") flag(command, `\`${command.text}\` changes to a folder Kiln cannot check (the home folder or the last one)`, true);
    // `cd ~` is judged as a word below (a home folder); any other folder becomes a base.
    else if (!target.value.startsWith("~")) bases.push(resolve(cwd, target.value));
  }
  let looked = 0;
  for (const command of analysis.commands) {
    if (command.nested || command.pathProblem) continue;
    for (const word of pathCandidates(command)) {
      const value = word.value;
      if (value === undefined) {
        flag(command, `\`${word.raw}\` names a file known only when it runs`, true);
        break;
      }
      if (HARMLESS_FILE.test(value)) continue;
      if (++looked > MAX_PATHS) {
        flag(command, `it names more than ${MAX_PATHS} paths`, true);
        break;
      }
      const problem = await judgeWord(value, word.raw, bases, judge);
      if (typeof problem === "string") flag(command, problem, false);
      else if (problem) {
        flag(command, problem.problem, true);
        break;
      }
    }
  }
}

/**
 * Names the command's first path problem; a later one that may be a hidden path replaces one that is
 * only outside the workspace, since the command sandbox contains the latter and not the former.
 * That is also why the words after an outside path are still looked at.
 */
function flag(command: SimpleCommand, problem: string, mayBeHidden: boolean): void {
  if (command.pathProblem !== undefined && (command.pathMayBeHidden || !mayBeHidden)) return;
  command.pathProblem = problem;
  if (mayBeHidden) command.pathMayBeHidden = true;
}

async function judgeWord(value: string, written: string, bases: readonly string[], judge: PathJudge): ReturnType<PathJudge> {
  if (/^~/.test(value)) return `\`${written}\` is in a home folder, outside the workspace`;
  // A glob names what matches it; the folder before its first wildcard is what it can reach.
  const wildcard = value.search(/[*?[]/);
  const literal = wildcard < 0 ? value : value.slice(0, value.lastIndexOf("/", wildcard) + 1) || ".";
  for (const base of isAbsolute(literal) ? [bases[0]!] : bases) {
    const problem = await judge(resolve(base, literal), written);
    if (problem) return problem;
  }
  return undefined;
}

export type { SimpleCommand };
