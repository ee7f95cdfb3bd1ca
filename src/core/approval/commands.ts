/**
 * Judging the simple commands of a parsed line (shell/analyze.ts) against the allowed and denied
 * prefix lists. Prefixes match whole words of the command as the shell passes them, never the
 * text as written: quotes, comments, newlines and here-documents cannot make one command look like
 * another.
 */
import { posix } from "node:path";
import type { CommandAnalysis, ShellWord, SimpleCommand } from "./shell/analyze";
import { baseName } from "./shell/options";

/** A command line read by the shell grammar, with what its path-like words reach (pathCheck.ts). */
export interface AnalyzedCommand extends CommandAnalysis {
  /** As the model wrote it. */
  text: string;
}

/** The words of a command as the prefix lists see them: values where known, else as written. */
export function wordsOf(command: SimpleCommand): string[] {
  return [...command.assignments, ...command.words.map((w) => w.value ?? w.raw)];
}

/** Wrappers that run the command after them: for the deny list, `sudo rm -rf x` is still `rm -rf x`. */
const WRAPPERS = new Set(["sudo", "doas", "command", "exec", "nice", "nohup", "time", "env", "builtin", "xargs", "timeout", "stdbuf", "ionice", "watch", "chrt", "taskset", "setsid"]);

/**
 * Every reading of the command the deny list must see: as written, with the command name's folder
 * dropped (`/bin/rm`), and each tail after a leading wrapper or assignment (`sudo -u bob rm -rf x`
 * hides `rm -rf x` behind an option value, so every tail is checked). The deny list thus never
 * misses a wrapped command; the allow list never looks past a wrapper.
 */
export function denyReadings(command: SimpleCommand): string[][] {
  const words = wordsOf(command);
  const readings = [words];
  const named = (list: string[]) => (list.length ? [[baseName(list[0]!), ...list.slice(1)]] : []);
  readings.push(...named(words));
  let i = 0;
  while (i < words.length && (/^[A-Za-z_]\w*=/.test(words[i]!) || WRAPPERS.has(baseName(words[i]!)))) {
    const wrapper = WRAPPERS.has(baseName(words[i]!));
    i++;
    if (!wrapper) {
      readings.push(...named(words.slice(i)));
      continue;
    }
    for (let j = i; j < words.length; j++) readings.push(...named(words.slice(j)));
  }
  return readings;
}

/**
 * Whether the prefix starts the command's words: every prefix word equal to the command's, the last
 * one whole ("ls" is not "lsof") unless it ends in punctuation ("./scripts/", "git log --"). A path
 * prefix matches only a path that stays under it once `..` is resolved: `./scripts/../x.sh` is not
 * in `./scripts/`.
 */
function startsWithPrefix(words: readonly string[], prefix: readonly string[], caseInsensitive: boolean): boolean {
  if (prefix.length === 1 && prefix[0] === "*") return true;
  if (prefix.length > words.length) return false;
  const same = (a: string, b: string) => (caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b);
  for (let i = 0; i < prefix.length; i++) {
    const want = prefix[i]!;
    const have = words[i]!;
    if (same(have, want)) continue;
    if (i < prefix.length - 1 || !/\W$/.test(want)) return false;
    if (want.includes("/")) {
      if (!pathUnder(have, want)) return false;
    } else if (!(caseInsensitive ? have.toLowerCase().startsWith(want.toLowerCase()) : have.startsWith(want))) return false;
  }
  return true;
}

function pathUnder(path: string, folder: string): boolean {
  const normal = (p: string) => posix.normalize(p).replace(/^\.\//, "");
  const base = normal(folder);
  const target = normal(path);
  return target.startsWith(base.endsWith("/") ? base : `${base}/`) && !target.startsWith("../") && !target.includes("/../");
}

function prefixWords(raw: string): string[] {
  return raw.trim().split(/\s+/).filter(Boolean);
}

/** The longest prefix of the list that starts one of the readings; "*" counts as the shortest. */
export function longestPrefix(readings: readonly (readonly string[])[], prefixes: readonly string[], caseInsensitive = false): string | undefined {
  let best: string | undefined;
  for (const raw of prefixes) {
    const words = prefixWords(raw);
    if (words.length === 0 || !readings.some((r) => startsWithPrefix(r, words, caseInsensitive))) continue;
    const prefix = words.join(" ");
    if (best === undefined || prefixLength(prefix) > prefixLength(best)) best = prefix;
  }
  return best;
}

export function prefixLength(prefix: string | undefined): number {
  return prefix === undefined ? -1 : prefix === "*" ? 0 : prefix.length;
}

/** Files a redirection may name that are not files on disk. */
const HARMLESS_FILE = /^\/dev\/(null|stdout|stderr|tty)$/;

/** The file an output redirection writes to, as written; undefined when none does. */
export function redirectTarget(command: SimpleCommand): string | undefined {
  for (const redirect of command.redirects) {
    if (!redirect.writes) continue;
    const target = redirect.target;
    if (target?.value !== undefined && HARMLESS_FILE.test(target.value)) continue;
    return target?.raw ?? redirect.op;
  }
  return undefined;
}

/** Words a command reads or writes as files: its arguments, option values and redirection targets. */
export function pathCandidates(command: SimpleCommand): ShellWord[] {
  const found: ShellWord[] = [];
  // After `--` every word is an operand, even one that starts with a dash.
  let operands = false;
  command.words.forEach((word, i) => {
    const value = word.value;
    if (value === undefined || value === "" || value === "-") return;
    // The command name is a path only when written as one (`./x.sh`); `ls` is looked up in PATH.
    if (i === 0) {
      if (value.includes("/")) found.push(word);
      return;
    }
    if (operands || !value.startsWith("-")) {
      found.push(word);
      return;
    }
    if (value === "--") {
      operands = true;
      return;
    }
    // `--file=/x` and `-f/x` (a value joined to short flags) name a path as much as `-f /x` does.
    const joined = /^--?[A-Za-z][\w-]*=(.*)$/s.exec(value) ?? /^-[A-Za-z]+([./~].*)$/s.exec(value);
    if (joined?.[1]) found.push({ ...word, value: joined[1] });
  });
  for (const redirect of command.redirects) if ((redirect.reads || redirect.writes) && redirect.target) found.push(redirect.target);
  return found;
}

export { HARMLESS_FILE };
