/**
 * Commands that can wreck the machine are never run on auto-approval: the user is asked each time,
 * with the reason. This guards against a model's mistake, not against someone set on getting past it
 * (`eval`, base64, a script file all hide a command from any pattern list); approval of the command
 * group is still the user's real safeguard.
 */

/** Paths whose recursive removal or permission change takes the system or the home folder with it. */
const ROOT_LIKE = /^(\/+|\/+\*|\/+\.|~|~\/|~\/\*|\$\{?HOME\}?\/?\*?|\/+(bin|boot|dev|etc|home|lib|lib64|opt|root|sbin|srv|sys|usr|var|System|Users|Library|Applications)\/?\*?)$/;

/** Wrappers that run the command after them: `sudo rm -rf /` is still rm. */
const PREFIXES = new Set(["sudo", "doas", "command", "exec", "nice", "nohup", "time", "env", "builtin"]);

const BLOCK_DEVICE = String.raw`\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d)`;

interface Rule {
  test(command: string, words: string[][]): boolean;
  reason: string;
}

function unquote(word: string): string {
  return word.replace(/^(['"])(.*)\1$/, "$2");
}

/** Simple commands as word lists: split on ; & | && || newlines and the parentheses of subshells. */
function simpleCommands(command: string): string[][] {
  return command
    .split(/&&|\|\||[;&|\n()`]|\$\(/)
    .map((part) => part.trim().split(/\s+/).filter(Boolean).map(unquote))
    .map((words) => {
      let i = 0;
      // Skip wrappers, their flags and VAR=value assignments in front of the real command.
      while (i < words.length && (PREFIXES.has(words[i]!) || /^[A-Za-z_]\w*=/.test(words[i]!) || (i > 0 && words[i]!.startsWith("-") && PREFIXES.has(words[i - 1]!)))) i++;
      return words.slice(i).map((w, k) => (k === 0 ? w.replace(/^.*\//, "") : w));
    })
    .filter((words) => words.length > 0);
}

/** A recursive command (rm -r, chmod -R, chown -R) aimed at a root-like path. */
function recursiveOnRoot(words: string[][], names: string[]): boolean {
  return words.some(([name, ...rest]) => {
    if (!name || !names.includes(name)) return false;
    let options = true;
    let recursive = false;
    let target = false;
    for (const word of rest) {
      if (options && word === "--") options = false;
      else if (options && /^--recursive$/.test(word)) recursive = true;
      else if (options && /^-[a-zA-Z]+$/.test(word)) recursive ||= /[rR]/.test(word);
      else if (ROOT_LIKE.test(word)) target = true;
    }
    return recursive && target;
  });
}

const RULES: Rule[] = [
  { reason: "it deletes a system or home folder recursively", test: (_, w) => recursiveOnRoot(w, ["rm"]) },
  { reason: "it changes permissions or owners of a system or home folder recursively", test: (_, w) => recursiveOnRoot(w, ["chmod", "chown", "chgrp"]) },
  // name(){ name|name& };name — the function calls itself twice in the background, forever.
  { reason: "it is a fork bomb", test: (c) => /([\w:.]+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(c) },
  { reason: "it formats a disk", test: (_, w) => w.some(([name]) => /^(mkfs(\.\w+)?|mke2fs|mkswap|wipefs)$/.test(name!)) },
  { reason: "it writes straight to a disk device", test: (c) => new RegExp(String.raw`\bdd\b[^;&|]*\bof=${BLOCK_DEVICE}|>\s*${BLOCK_DEVICE}`).test(c) },
  {
    reason: "it runs a script downloaded from the internet without showing it first",
    test: (c) => /\b(curl|wget)\b[^;&]*\|\s*(sudo\s+(-\S+\s+)*)?(\S*\/)?(ba|z|da|k|fi)?sh\b/.test(c) || /\b(ba|z|da|k)?sh\b[^;&|]*(<\(|\$\()\s*(curl|wget)\b/.test(c),
  },
];

/** Why the command must always ask, or undefined when it is not on the list. */
export function destructiveReason(command: string): string | undefined {
  const words = simpleCommands(command);
  return RULES.find((rule) => rule.test(command, words))?.reason;
}
