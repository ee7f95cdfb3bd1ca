/**
 * A command line as the shell will run it, read with a real shell grammar (tree-sitter-bash, the
 * grammar editors and VS Code's own terminal tooling use) instead of a hand-rolled splitter. Every
 * simple command in the tree is found — in lists, pipelines, subshells, groups, substitutions and
 * here-documents — with its words as the shell passes them. Whatever the walk does not fully
 * understand is named in `unsafe`, and the policy then asks: the grammar is bash, and the line may
 * run in dash, zsh or an interactive shell, so constructs those read differently (comments,
 * `$'…'`, `&>`, history `!`, brace expansion) are never trusted either.
 */
import type { Node } from "web-tree-sitter";
import { loadLanguage, loadRuntime } from "../../treeSitter/runtime";

/** One word of a simple command. */
export interface ShellWord {
  /** As written. */
  raw: string;
  /** The value the command receives, quotes and escapes removed; undefined when it is only known at run time. */
  value?: string;
  /** Unquoted `*`, `?` or `[`: the shell replaces it with file names. */
  glob: boolean;
}

export interface ShellRedirect {
  /** `>`, `>>`, `>|`, `<`, `>&`, `<&`, `&>`, `&>>`, `<<`, `<<<`… */
  op: string;
  target?: ShellWord;
  /** The redirection opens a file for writing (or reading and writing). */
  writes: boolean;
  /** The redirection reads a file (`<`). */
  reads: boolean;
}

export interface SimpleCommand {
  /** As written, whitespace collapsed, for messages. */
  text: string;
  /** `NAME=value` words before the command. */
  assignments: string[];
  /** The command name and its arguments. */
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Runs inside `$(…)`, backticks or `<(…)`: a command hidden in another. */
  nested: boolean;
  /** Set by pathCheck.ts: why a path it names may not be reached unasked. */
  pathProblem?: string;
  /**
   * Set with pathProblem when the path is hidden from Kiln (.kilocodeignore) or may be (known only
   * when it runs, one of too many to look up): the command sandbox hides neither.
   */
  pathMayBeHidden?: boolean;
}

export interface CommandAnalysis {
  commands: SimpleCommand[];
  /** `$(…)`, backticks, `<(…)` or `>(…)` somewhere in the line. */
  substitution: boolean;
  /** Why the line as a whole cannot be auto-approved, in the order found; empty when all of it was understood. */
  unsafe: string[];
  /** Why the grammar could not read the line at all (a syntax error, control characters); then it always asks. */
  unreadable?: string;
}

let parserLoad: Promise<import("web-tree-sitter").Parser> | undefined;

function bashParser() {
  parserLoad ??= (async () => {
    const { Parser } = await loadRuntime();
    const parser = new Parser();
    parser.setLanguage(await loadLanguage("bash"));
    return parser;
  })();
  parserLoad.catch(() => (parserLoad = undefined));
  return parserLoad;
}

/** Longer lines are not read: a person should see what runs. */
const MAX_COMMAND_CHARS = 20_000;

/**
 * Windows runs commands in cmd.exe or PowerShell, whose quoting, escapes (`^`, backtick) and
 * expansions (`%X%`, `$(…)`) are not the POSIX shell's: there, only lines of plain words are read.
 */
const WINDOWS_PLAIN = /^[\w\s\-./:=@,+]*$/;

export async function analyzeCommand(command: string, platform: NodeJS.Platform = process.platform): Promise<CommandAnalysis> {
  if (command.length > MAX_COMMAND_CHARS) return { commands: [], substitution: false, unsafe: [], unreadable: `it is longer than ${MAX_COMMAND_CHARS} characters` };
  if (platform === "win32" && !WINDOWS_PLAIN.test(command)) {
    return { commands: [], substitution: false, unsafe: [], unreadable: "on Windows only lines of plain words are auto-approved (cmd.exe and PowerShell read quotes and symbols their own ways)" };
  }
  const parser = await bashParser();
  const tree = parser.parse(command);
  if (!tree) return { commands: [], substitution: false, unsafe: [], unreadable: "the shell grammar could not read it" };
  try {
    const walk = new Walk();
    walk.statements(tree.rootNode, false);
    // Control characters other than tab and newline (a lone carriage return, NUL, escape) are read
    // differently by shells, terminals and the grammar.
    const unreadable = /[\0-\x08\x0b-\x1f\x7f]/.test(command)
      ? "it holds control characters (such as a carriage return)"
      : tree.rootNode.hasError
        ? `the shell grammar could not read all of it (${errorNear(tree.rootNode, command)})`
        : undefined;
    return { commands: walk.commands, substitution: walk.substitution, unsafe: walk.unsafe, ...(unreadable && { unreadable }) };
  } finally {
    // Trees live in wasm memory, which no garbage collector frees.
    tree.delete();
  }
}

function errorNear(root: Node, command: string): string {
  const bad = findError(root);
  if (!bad) return "it is incomplete";
  const at = bad.startIndex;
  const snippet = command
    .slice(at, at + 20)
    .replace(/\s+/g, " ")
    .trim();
  return snippet ? `near \`${snippet}\`` : "it ends too early";
}

function findError(node: Node): Node | undefined {
  if (node.type === "ERROR" || node.isMissing) return node;
  for (const child of node.children) {
    if (child.hasError || child.isMissing || child.type === "ERROR") {
      const found = findError(child);
      if (found) return found;
    }
  }
  return undefined;
}

/** Nodes that only hold statements or join them; their statements run as written. */
const CONTAINERS = new Set(["program", "list", "pipeline", "subshell", "compound_statement", "negated_command"]);

/** Statement kinds whose meaning Kiln does not judge: they ask, named as the user knows them. */
const CONSTRUCTS: Record<string, string> = {
  if_statement: "an `if` block",
  while_statement: "a loop",
  for_statement: "a loop",
  c_style_for_statement: "a loop",
  case_statement: "a `case` block",
  function_definition: "a function definition",
  declaration_command: "a declaration (export, declare, local…)",
  unset_command: "`unset`",
  test_command: "a `[[ … ]]` test",
  variable_assignment: "a variable assignment that changes what later commands run",
  variable_assignments: "a variable assignment that changes what later commands run",
};

class Walk {
  readonly commands: SimpleCommand[] = [];
  readonly unsafe: string[] = [];
  substitution = false;

  flag(reason: string): void {
    if (!this.unsafe.includes(reason)) this.unsafe.push(reason);
  }

  /** Children of a container: statements, operators, comments. */
  statements(node: Node, nested: boolean): void {
    for (const child of node.namedChildren) this.statement(child, nested);
  }

  statement(node: Node, nested: boolean): void {
    if (CONTAINERS.has(node.type)) return this.statements(node, nested);
    switch (node.type) {
      case "command":
        return this.command(node, [], nested);
      case "redirected_statement": {
        const body = node.childForFieldName("body");
        const redirectNodes = node.namedChildren.filter((c) => c.id !== body?.id);
        const parts = redirectNodes.map((c) => this.redirect(c, nested));
        const redirects = parts.flatMap((p) => (p.redirect ? [p.redirect] : []));
        const extra = parts.flatMap((p) => p.extra);
        const shown = redirectNodes.map((c) => collapse(c.text)).join(" ");
        // bash reads `cmd >out arg` with arg as an argument; the grammar keeps it in the redirection.
        if (body?.type === "command") return this.command(body, redirects, nested, shown, extra);
        // After a group's redirection (`{ a; } >f b`) a word is a syntax error in bash; never trusted.
        if (extra.length) this.flag("it has words after a redirection that the shell reads another way");
        const before = this.commands.length;
        if (body) this.statement(body, nested);
        const inside = this.commands.slice(before);
        // The grammar hangs `a && b > f` on the whole list, where bash gives the file to `b` alone;
        // a group's redirection (`{ a; b; } > f`) is every command's.
        const takers = body?.type === "list" || body?.type === "pipeline" ? inside.slice(-1) : inside;
        for (const command of takers) {
          command.redirects.push(...redirects);
          command.text = `${command.text} ${shown}`;
        }
        if (takers.length === 0 && redirects.length) this.commands.push({ text: collapse(node.text), assignments: [], words: [], redirects, nested });
        return;
      }
      case "comment":
        return this.flag("it has a comment (`#…`), which shells do not all read the same way");
      case "ERROR":
        return;
      default: {
        const name = CONSTRUCTS[node.type];
        this.flag(name ? `it uses ${name}` : `it uses shell syntax Kiln does not judge (${node.type})`);
        // The commands inside still count for the deny list.
        for (const child of node.namedChildren) this.statement(child, nested);
      }
    }
  }

  command(node: Node, outer: ShellRedirect[], nested: boolean, outerText = "", outerWords: ShellWord[] = []): void {
    const assignments: string[] = [];
    const words: ShellWord[] = [];
    const redirects: ShellRedirect[] = [...outer];
    for (const child of node.namedChildren) {
      if (child.type === "variable_assignment") {
        assignments.push(child.text);
        const value = child.childForFieldName("value");
        if (value) this.word(value, nested);
      } else if (child.type === "command_name") {
        const name = child.namedChildren[0];
        if (name) words.push(this.word(name, nested));
      } else if (child.type.endsWith("_redirect")) {
        // bash reads `cmd >out arg` as an argument after the redirection; the grammar keeps it there.
        const [redirect, ...more] = this.redirectParts(child, nested);
        if (redirect) redirects.push(redirect);
        words.push(...more);
      } else {
        words.push(this.word(child, nested));
      }
    }
    words.push(...outerWords);
    this.commands.push({ text: collapse(`${node.text} ${outerText}`), assignments, words, redirects, nested });
  }

  redirect(node: Node, nested: boolean): { redirect?: ShellRedirect; extra: ShellWord[] } {
    if (!node.type.endsWith("_redirect")) {
      this.statement(node, nested);
      return { extra: [] };
    }
    const [redirect, ...extra] = this.redirectParts(node, nested);
    return { ...(redirect && { redirect }), extra };
  }

  redirectParts(node: Node, nested: boolean): [ShellRedirect | undefined, ...ShellWord[]] {
    const op = node.children.find((c) => !c.isNamed)?.type ?? "";
    if (node.type === "heredoc_redirect") {
      for (const child of node.namedChildren) if (child.type === "heredoc_body") this.heredoc(child, nested);
      return [{ op, writes: false, reads: false }];
    }
    const targets = node.namedChildren.filter((c) => c.type !== "file_descriptor");
    const [first, ...rest] = targets.map((t) => this.word(t, nested));
    if (op === "&>" || op === "&>>") this.flag(`it redirects with \`${op}\`, which sh reads as \`&\` (run in the background) and \`>\``);
    if (node.type === "herestring_redirect") return [{ op, ...(first && { target: first }), writes: false, reads: false }, ...rest];
    // `2>&1`, `>&2`, `>&-`: a descriptor copied or closed, no file.
    const duplicate = op === ">&-" || op === "<&-" || ((op === ">&" || op === "<&") && first?.value !== undefined && /^(\d+|-)$/.test(first.value));
    const writes = !duplicate && (op.includes(">") || op === "<>");
    const reads = !duplicate && (op === "<" || op === "<&");
    return [{ op, ...(first && { target: first }), writes, reads }, ...rest];
  }

  heredoc(body: Node, nested: boolean): void {
    // A quoted delimiter keeps the body literal (the grammar then has no children in it); otherwise
    // the shell expands it, and what it expands is judged like any word.
    for (const child of body.namedChildren) if (child.type !== "heredoc_content") this.word(child, nested);
  }

  /** A word's value as the shell would pass it, or undefined where only running it tells. */
  word(node: Node, nested: boolean): ShellWord {
    const raw = node.text;
    const parts = this.parts(node, nested);
    const value = parts.every((p) => p.value !== undefined) ? parts.map((p) => p.value).join("") : undefined;
    const unquoted = parts.map((p) => p.unquoted).join("");
    if (/\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(unquoted)) this.flag(`\`${raw}\` uses brace expansion, which bash and sh expand differently`);
    return { raw, ...(value !== undefined && { value }), glob: /[*?[]/.test(unquoted) };
  }

  /** The pieces of a word: each with its value (if known) and its unquoted text (for globs and braces). */
  parts(node: Node, nested: boolean): { value?: string; unquoted: string }[] {
    switch (node.type) {
      case "word":
      case "number": {
        const text = node.text;
        if (/!/.test(text)) this.flag(`\`${text}\` has a \`!\`, which an interactive shell expands from its history`);
        if (/^=/.test(text)) this.flag(`\`${text}\` starts with \`=\`, which zsh expands to a command's path`);
        // Escaped characters are literal: blank them in the unquoted text so `\*` is no glob.
        return [{ value: unescapeWord(text), unquoted: text.replace(/\\[\s\S]/g, "__") }];
      }
      case "raw_string":
        return [{ value: node.text.slice(1, -1), unquoted: "''" }];
      case "string": {
        const pieces = node.namedChildren.map((child) => {
          if (child.type === "string_content") {
            if (/!/.test(child.text)) this.flag(`\`${node.text}\` has a \`!\`, which an interactive shell expands from its history`);
            return { value: unescapeDoubleQuoted(child.text) };
          }
          return { value: this.expansion(child, nested) };
        });
        const known = pieces.every((p) => p.value !== undefined);
        return [{ ...(known && { value: pieces.map((p) => p.value).join("") }), unquoted: '""' }];
      }
      case "concatenation":
        return node.namedChildren.flatMap((child) => this.parts(child, nested));
      case "ansi_c_string":
      case "translated_string":
        this.flag(`\`${node.text}\` uses ${node.type === "ansi_c_string" ? "$'…'" : '$"…"'} quoting, which bash and sh read differently`);
        return [{ unquoted: "_" }];
      default:
        this.expansion(node, nested);
        return [{ unquoted: "_" }];
    }
  }

  /** `$X`, `${X}`, `$((…))`, `$(…)`…: known only when the command runs. */
  expansion(node: Node, nested: boolean): undefined {
    switch (node.type) {
      case "command_substitution":
      case "process_substitution":
        this.substitution = true;
        this.statements(node, true);
        return undefined;
      case "simple_expansion":
      case "expansion":
        this.flag(`it expands \`${node.text}\`, whose value Kiln cannot check before it runs`);
        // `${X:-$(cmd)}` hides a command in an expansion.
        for (const child of node.namedChildren) this.inner(child, nested);
        return undefined;
      case "arithmetic_expansion":
        this.flag(`it uses arithmetic expansion (\`${node.text}\`), which can run commands`);
        for (const child of node.namedChildren) this.inner(child, nested);
        return undefined;
      default:
        this.flag(`it uses shell syntax Kiln does not judge (${node.type})`);
        for (const child of node.namedChildren) this.inner(child, nested);
        return undefined;
    }
  }

  /** Substitutions anywhere below a node the walk does not otherwise read. */
  inner(node: Node, nested: boolean): void {
    if (node.type === "command_substitution" || node.type === "process_substitution") {
      this.expansion(node, nested);
      return;
    }
    for (const child of node.namedChildren) this.inner(child, nested);
  }
}

/** An unquoted word: `\x` is x, a backslash-newline joins lines. */
function unescapeWord(text: string): string {
  return text.replace(/\\(\n|[\s\S])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Inside double quotes only `\$`, `` \` ``, `\"`, `\\` and backslash-newline are escapes. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

function collapse(text: string): string {
  return text.trim().split(/\s+/).join(" ");
}
