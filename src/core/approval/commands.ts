/**
 * Reading a shell command line well enough to judge it against prefix lists: split into the simple
 * commands a chain runs, find command substitution and output redirection. It is not a shell
 * parser; where it cannot tell, the answer is "ask", never "allow".
 */

export interface CommandPart {
  /** The simple command as written, whitespace collapsed, grouping words (`(`, `{`, `then`…) dropped. */
  text: string;
  /** With quoted text blanked out: what the shell itself reads as syntax. */
  bare: string;
}

export interface SplitCommand {
  parts: CommandPart[];
  /** `$(…)`, backticks, `<(…)` or `>(…)`: a command hidden inside another. */
  substitution: boolean;
  /** Why the line could not be read (an unclosed quote); then nothing is auto-approved. */
  error?: string;
}

/** Words that open or close a group or a compound command; what follows them is the command that runs. */
const GROUPING = new Set(["{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"]);

/**
 * Quoted text is blanked in `bare` so it is not read as syntax; whitespace stays, so `text` and
 * `bare` split into the same words.
 */
function blank(c: string, closing: string): string {
  return c === closing || /\s/.test(c) ? c : "_";
}

/** Splits on `&&`, `||`, `;`, `|`, `&`, newlines and subshell parentheses outside quotes. */
export function splitCommand(command: string): SplitCommand {
  const raw: { text: string; bare: string }[] = [];
  let text = "";
  let bare = "";
  let quote: "'" | '"' | undefined;
  let substitution = false;
  const cut = () => {
    raw.push({ text, bare });
    text = "";
    bare = "";
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    const next = command[i + 1];
    if (quote === "'") {
      text += c;
      bare += blank(c, "'");
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\") {
      // A backslash-newline continues the line; any other escaped character is plain text.
      if (next === "\n") {
        text += " ";
        bare += " ";
      } else if (next !== undefined) {
        text += c + next;
        bare += `_${blank(next, "")}`;
      }
      i++;
      continue;
    }
    if (c === "`" || (c === "$" && next === "(")) substitution = true;
    if (quote === '"') {
      text += c;
      bare += blank(c, '"');
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      text += c;
      bare += c;
      continue;
    }
    if ((c === "<" || c === ">") && next === "(") substitution = true;
    // The character before, as the shell reads it: an escaped or quoted `>` is blanked in `bare`.
    const previous = bare[bare.length - 1];
    if (c === "&" && (next === "&" || (previous !== ">" && previous !== "<" && next !== ">"))) {
      // `&&`, and `&` that sends a command to the background; `2>&1`, `&>` and `>&` are redirections.
      if (next === "&") i++;
      cut();
      continue;
    }
    // `>|` is a redirection (overwrite even with noclobber), not a pipe.
    if (c === "|" && previous !== ">") {
      // `||`, `|` and `|&` (pipe with stderr) all end a command.
      if (next === "|" || next === "&") i++;
      cut();
      continue;
    }
    if (c === ";" || c === "\n" || c === "\r") {
      cut();
      continue;
    }
    // Subshells, and the insides of substitutions (already marked), are commands of their own: the
    // deny list must see `rm -rf x` in `(cd a; rm -rf x)` and in `echo $(rm -rf x)`.
    if (c === "(" || c === ")" || c === "`") {
      cut();
      continue;
    }
    text += c;
    bare += c;
  }
  cut();
  const parts = raw.map(normalize).filter((p) => p.text !== "");
  return quote ? { parts, substitution, error: `it has an unclosed ${quote === "'" ? "single" : "double"} quote` } : { parts, substitution };
}

function normalize(part: { text: string; bare: string }): CommandPart {
  const words = part.text.trim().split(/\s+/).filter(Boolean);
  const bareWords = part.bare.trim().split(/\s+/).filter(Boolean);
  // Quoted words are blanked in `bare`, so a quoted "then" is not taken for the keyword.
  let skip = 0;
  while (skip < words.length && GROUPING.has(bareWords[skip]!)) skip++;
  return { text: words.slice(skip).join(" "), bare: bareWords.slice(skip).join(" ") };
}

/** Wrappers that run the command after them: for the deny list, `sudo rm -rf x` is still `rm -rf x`. */
const WRAPPERS = new Set(["sudo", "doas", "command", "exec", "nice", "nohup", "time", "env", "builtin", "xargs", "timeout"]);

/** The command a wrapper or a VAR=value runs, for matching against the deny list. */
export function unwrapped(part: CommandPart): string {
  const words = part.text.split(" ");
  const bareWords = part.bare.split(" ");
  let i = 0;
  let wrapped = false;
  for (; i < words.length; i++) {
    const word = bareWords[i] ?? "";
    // A wrapper's flags and numbers (`nice -n 5`, `timeout 10s`) belong to it, not to the command.
    const wrapperArgument = wrapped && (/^-/.test(word) || /^\d+[smhd]?$/.test(word));
    if (WRAPPERS.has(word)) wrapped = true;
    else if (/^[A-Za-z_]\w*=/.test(word)) {
      // A quoted value may hold spaces: `X="a b" rm -rf x` is one assignment before `rm`. Quote
      // characters left in `bare` are the delimiters, so an odd count leaves the quote open.
      let quotes = quoteCount(word);
      while (quotes % 2 === 1 && i + 1 < words.length) quotes += quoteCount(bareWords[++i] ?? "");
    } else if (!wrapperArgument) break;
  }
  return words.slice(i).join(" ");
}

/**
 * What follows each word after a leading wrapper: `sudo -u bob rm -rf x` hides `rm -rf x` behind an
 * option value that `unwrapped` cannot tell from a command without knowing each wrapper's options.
 * The deny list checks them all, so a wrapper never hides a denied command; an allow-list never does.
 */
export function wrappedTails(part: CommandPart): string[] {
  const words = part.text.split(" ");
  const bareWords = part.bare.split(" ");
  if (!WRAPPERS.has(bareWords[0] ?? "")) return [];
  const tails: string[] = [];
  for (let i = 1; i < words.length; i++) tails.push(words.slice(i).join(" "));
  return tails;
}

function quoteCount(word: string): number {
  return word.replace(/[^"']/g, "").length;
}

/** Files an output redirection may name that are not files on disk. */
const HARMLESS_FILE = /^\/dev\/(null|stdout|stderr|tty)$/;

/** The file an output redirection (`>`, `>>`, `>|`, `&>`, `2>`, `>&`) writes to, if any. */
export function redirectTarget(part: CommandPart): string | undefined {
  const pattern = /(?:&|\d*)>{1,2}(\||&)?\s*([^\s<>|&;]*)/g;
  for (let match = pattern.exec(part.bare); match; match = pattern.exec(part.bare)) {
    const target = match[2] ?? "";
    if (target === "" || HARMLESS_FILE.test(target)) continue;
    // `2>&1`, `>&2`, `>&-`: a descriptor copied or closed. `>& out` (no number) writes the file out.
    if (match[1] === "&" && /^\d*-?$/.test(target)) continue;
    // Show the target as written (quotes included), from the same place in the text.
    const at = match.index + match[0].length - target.length;
    return part.text.slice(at, at + target.length) || target;
  }
  return undefined;
}

/** Whether `prefix` starts `text` at a word boundary: "ls" matches "ls -la", not "lsof". */
function startsWithPrefix(text: string, prefix: string): boolean {
  if (prefix === "*") return true;
  if (!text.startsWith(prefix)) return false;
  if (text.length === prefix.length) return true;
  // A prefix that ends in punctuation ("./scripts/", "git log --") names a start, not a whole word.
  return /\s/.test(text[prefix.length]!) || /\W$/.test(prefix);
}

/** The longest prefix of the list that starts the text; "*" counts as the shortest. */
export function longestPrefix(text: string, prefixes: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const raw of prefixes) {
    const prefix = raw.trim().split(/\s+/).join(" ");
    if (prefix === "" || !startsWithPrefix(text, prefix)) continue;
    if (best === undefined || prefixLength(prefix) > prefixLength(best)) best = prefix;
  }
  return best;
}

export function prefixLength(prefix: string | undefined): number {
  return prefix === undefined ? -1 : prefix === "*" ? 0 : prefix.length;
}
