/**
 * Cuts a file into the chunks the codebase index ranks: a source file along its definitions (by
 * its tree-sitter tree), a Markdown file by its headings, anything else in windows of lines.
 *
 * Rules, for code:
 * - A definition that fits the limits is one chunk, named by it and by the definitions inside it
 *   (a class: its name and its methods').
 * - One that does not is cut along the definitions inside it, each named by itself and by
 *   "Outer.inner" (a method by "Class.method"); what lies between them becomes "block" chunks
 *   named by the outer definition. A definition with nothing inside it is cut into "block" chunks
 *   at line boundaries, all named by it.
 * - Comments, decorators and attributes on the lines right above a definition belong to it. Any
 *   other run between definitions shorter than minLines joins the definition after it (else the
 *   one before it); longer runs become "lines" chunks (or "block" inside a definition).
 * Every non-blank line ends up in exactly one chunk; chunks are in file order and do not overlap
 * (a line longer than maxChars is the one exception to whole lines: it is cut into several chunks).
 */
import type { Node, Parser, Tree } from "web-tree-sitter";
import { loadLanguage, loadRuntime } from "../treeSitter/runtime";
import { grammarFor } from "../tools/treeSitter/languages";
import type { Grammar } from "../tools/treeSitter/queries";
import { DEFAULT_CHUNK_LIMITS, joinShortGaps, linePieces, markdownPieces, SourceLines, splitRange, toChunks, union, type ChunkLimits, type Piece } from "./textChunks";
import type { CodeChunk } from "./types";

export { DEFAULT_CHUNK_LIMITS, type ChunkLimits };

/** A namespace (module, mod) is told apart from a class only so that its functions are not called methods; it is a "class" chunk. */
type DefKind = "function" | "class" | "method" | "type" | "namespace";

interface Definition {
  /** 0-based, inclusive rows, leading comments included. */
  start: number;
  end: number;
  kind: DefKind;
  /** The first is the definition's name; others are aliases (a Go method's "Recv.Method", a Rust impl's trait). */
  names: string[];
  children: Definition[];
}

const MARKDOWN = /\.(md|mdx|markdown)$/i;

/** A parse that takes longer is given up (the file is then cut in plain lines): a pathological file must not stall indexing. */
const PARSE_BUDGET_MS = 3000;
/** An average line this long is not written by hand. */
const MINIFIED_LINE_CHARS = 300;

export async function chunkFile(path: string, source: string, limits: ChunkLimits = DEFAULT_CHUNK_LIMITS): Promise<CodeChunk[]> {
  const src = new SourceLines(source);
  if (MARKDOWN.test(path)) return toChunks(path, src, markdownPieces(src, limits));
  const grammar = grammarFor(path);
  if (grammar && !looksMinified(src)) {
    const definitions = await findDefinitions(grammar, src).catch(() => undefined);
    if (definitions) return toChunks(path, src, chunkRange(src, 0, src.count - 1, definitions, undefined, limits));
  }
  return toChunks(path, src, linePieces(src, limits));
}

/** Minified or generated code: its definitions name nothing a search would look for, and its parse is the slowest there is. */
function looksMinified(src: SourceLines): boolean {
  return src.chars(0, src.count - 1) / src.count > MINIFIED_LINE_CHARS;
}

/** Rows start…end, which hold `definitions` (in order), as pieces; `outer` is the definition being cut up, if any. */
function chunkRange(src: SourceLines, start: number, end: number, definitions: Definition[], outer: Definition | undefined, limits: ChunkLimits): Piece[] {
  const gapKind = outer ? "block" : "lines";
  const gapSymbols = outer ? outer.names : [];
  const pieces: Piece[] = [];
  const gap = (from: number, to: number) => {
    for (const piece of splitRange(src, from, to, gapKind, gapSymbols, limits)) pieces.push({ ...piece, gap: true });
  };
  let cursor = start;
  for (const definition of definitions) {
    // Two definitions can share a row (`} function b() {`, minified code): the row went with the first.
    const from = Math.max(definition.start, cursor);
    const to = Math.min(definition.end, end);
    if (to < from) continue;
    gap(cursor, from - 1);
    pieces.push(...definitionPieces(src, { ...definition, start: from, end: to }, outer, limits));
    cursor = to + 1;
  }
  gap(cursor, end);
  return joinShortGaps(pieces, src, limits);
}

function definitionPieces(src: SourceLines, definition: Definition, outer: Definition | undefined, limits: ChunkLimits): Piece[] {
  const [name] = definition.names;
  const names = outer ? union(definition.names, [`${outer.names[0]}.${name}`]) : definition.names;
  if (src.fits(definition.start, definition.end, limits)) {
    const kind = definition.kind === "namespace" ? "class" : definition.kind;
    return [{ start: definition.start, end: definition.end, kind, symbols: union(names, nestedNames(definition)) }];
  }
  if (definition.children.length > 0) {
    // The pieces inside were joined at their own level; here they are all part of the definition, none a gap.
    return chunkRange(src, definition.start, definition.end, definition.children, { ...definition, names }, limits).map((piece) => ({ ...piece, gap: false }));
  }
  return splitRange(src, definition.start, definition.end, "block", names, limits);
}

function nestedNames(definition: Definition): string[] {
  return definition.children.flatMap((child) => [...child.names, ...nestedNames(child)]);
}

// ---- Definitions from the tree -------------------------------------------------------------

/** Parsers are wasm instances: one per grammar, made on first use and kept; a failed load is not kept. */
const parsers = new Map<Grammar, Promise<Parser>>();

function parserFor(grammar: Grammar): Promise<Parser> {
  let loaded = parsers.get(grammar);
  if (!loaded) {
    loaded = (async () => {
      const { Parser } = await loadRuntime();
      const parser = new Parser();
      parser.setLanguage(await loadLanguage(grammar));
      return parser;
    })();
    parsers.set(grammar, loaded);
    loaded.catch(() => parsers.delete(grammar));
  }
  return loaded;
}

async function findDefinitions(grammar: Grammar, src: SourceLines): Promise<Definition[]> {
  const parser = await parserFor(grammar);
  const deadline = Date.now() + PARSE_BUDGET_MS;
  // Returning true from the callback cancels the parse (the typings say void, the runtime reads it).
  let tree: Tree | null;
  try {
    tree = parser.parse(src.lines.join("\n"), null, { progressCallback: () => Date.now() > deadline });
  } finally {
    // A cancelled parse would otherwise be resumed by the next call.
    parser.reset();
  }
  if (!tree) throw new Error("tree-sitter gave up on the file");
  try {
    return readDefinitions(tree, grammar, src);
  } finally {
    // Trees live in wasm memory, which no garbage collector frees.
    tree.delete();
  }
}

/** The definitions as a tree of their own, read with a cursor (a Node object per syntax node would be far slower on big files). */
function readDefinitions(tree: Tree, grammar: Grammar, src: SourceLines): Definition[] {
  const top: Definition = { start: 0, end: src.count - 1, kind: "function", names: [], children: [] };
  const open: Definition[] = [top];
  const opened: boolean[] = [];
  /** A comment or attribute that starts its line: the row it ends on → the row it starts on. */
  const leading = new Map<number, number>();
  const cursor = tree.walk();
  try {
    for (;;) {
      const type = cursor.nodeType;
      let entered = false;
      if (TRIVIA.test(type)) {
        const start = cursor.startPosition;
        if (start.column === src.indent(start.row)) leading.set(lastRow(cursor.endPosition, start.row), start.row);
      } else if (isCandidate(grammar, type)) {
        const parent = open[open.length - 1]!;
        const definition = toDefinition(grammar, cursor.currentNode, parent === top ? undefined : parent, leading);
        if (definition) {
          parent.children.push(definition);
          open.push(definition);
          entered = true;
        }
      }
      opened.push(entered);
      if (cursor.gotoFirstChild()) continue;
      for (;;) {
        if (opened.pop()) open.pop();
        if (cursor.gotoNextSibling()) break;
        if (!cursor.gotoParent()) return top.children;
      }
    }
  } finally {
    cursor.delete();
  }
}

const TRIVIA = /comment|^decorator$|^attribute_item$/;

/** A node ending at column 0 ends with its last newline (Rust's line comments do): it ends on the row before. */
function lastRow(end: { row: number; column: number }, startRow: number): number {
  return end.column === 0 && end.row > startRow ? end.row - 1 : end.row;
}

function toDefinition(grammar: Grammar, node: Node, parent: Definition | undefined, leading: Map<number, number>): Definition | undefined {
  const table = TABLES[grammar];
  const found = table ? table[node.type]?.(node) : genericRule(node);
  if (!found) return undefined;
  const names = found.names.map(cleanName).filter((name) => name.length > 0);
  if (names.length === 0) return undefined;
  // Decorators above `export class` or a Python `@decorator` sit in the wrapping node.
  const wrapper = node.parent && WRAPPERS.has(node.parent.type) ? node.parent : node;
  let start = wrapper.startPosition.row;
  while (leading.has(start - 1)) start = leading.get(start - 1)!;
  const kind = found.kind === "function" && (parent?.kind === "class" || parent?.kind === "type") ? "method" : found.kind;
  return { start, end: lastRow(node.endPosition, node.startPosition.row), kind, names, children: [] };
}

const WRAPPERS = new Set(["export_statement", "decorated_definition"]);

/** `declare module "fs"` is named by a string: the name is what is inside the quotes. */
function cleanName(name: string): string {
  return name
    .replace(/^(["'`])(.*)\1$/s, "$2")
    .replace(/\s+/g, " ")
    .slice(0, 200);
}

// ---- What a definition is, per grammar ----------------------------------------------------

type Rule = (node: Node) => { kind: DefKind; names: string[] } | undefined;

const field = (node: Node, name: string) => node.childForFieldName(name)?.text;
const named =
  (kind: DefKind, name = "name"): Rule =>
  (node) => {
    const text = field(node, name);
    return text ? { kind, names: [text] } : undefined;
  };
const withBody =
  (rule: Rule): Rule =>
  (node) =>
    node.childForFieldName("body") ? rule(node) : undefined;
/** A `const f = () => …` or `x = function () {…}`: a function (or class) by the name it is bound to. */
const bound =
  (kind: DefKind, nameField: string): Rule =>
  (node) => {
    const value = node.childForFieldName("value")?.type ?? "";
    if (/^(arrow_function|function_expression|function|generator_function)$/.test(value)) return named(kind, nameField)(node);
    if (value === "class") return named("class", nameField)(node);
    return undefined;
  };

const javascript: Record<string, Rule> = {
  function_declaration: named("function"),
  generator_function_declaration: named("function"),
  class_declaration: named("class"),
  method_definition: named("method"),
  variable_declarator: bound("function", "name"),
  field_definition: bound("method", "property"),
};

const typescript: Record<string, Rule> = {
  ...javascript,
  abstract_class_declaration: named("class"),
  interface_declaration: named("type"),
  type_alias_declaration: named("type"),
  enum_declaration: named("type"),
  internal_module: named("namespace"),
  module: named("namespace"),
  public_field_definition: bound("method", "name"),
};

/** A C/C++ function is named by its innermost declarator (`Foo::bar`, `operator==`, `~Foo`). */
const cppFunction: Rule = (node) => {
  let declarator = node.childForFieldName("declarator");
  for (;;) {
    const inner = declarator?.childForFieldName("declarator") ?? declarator?.namedChildren.find((child) => child?.type.endsWith("declarator"));
    if (!inner) break;
    declarator = inner;
  }
  return declarator ? { kind: "function", names: [declarator.text] } : undefined;
};

const stripGenerics = (text: string | undefined) => text?.replace(/<[\s\S]*$/, "");

const TABLES: Partial<Record<Grammar, Record<string, Rule>>> = {
  javascript,
  typescript,
  tsx: typescript,
  python: { function_definition: named("function"), class_definition: named("class") },
  go: {
    function_declaration: named("function"),
    method_declaration: (node) => {
      const name = field(node, "name");
      const receiver = node.childForFieldName("receiver")?.descendantsOfType("type_identifier")[0]?.text;
      return name ? { kind: "method", names: receiver ? [name, `${receiver}.${name}`] : [name] } : undefined;
    },
    type_spec: named("type"),
    type_alias: named("type"),
  },
  rust: {
    function_item: named("function"),
    function_signature_item: named("method"),
    macro_definition: named("function"),
    struct_item: named("type"),
    enum_item: named("type"),
    union_item: named("type"),
    type_item: named("type"),
    trait_item: named("type"),
    mod_item: withBody(named("namespace")),
    impl_item: (node) => {
      const type = stripGenerics(field(node, "type"));
      const trait = stripGenerics(field(node, "trait"));
      return type ? { kind: "class", names: trait ? [type, trait] : [type] } : undefined;
    },
  },
  java: {
    class_declaration: named("class"),
    record_declaration: named("class"),
    interface_declaration: named("type"),
    enum_declaration: named("type"),
    annotation_type_declaration: named("type"),
    method_declaration: named("method"),
    constructor_declaration: named("method"),
  },
  cpp: {
    function_definition: cppFunction,
    class_specifier: withBody(named("class")),
    struct_specifier: withBody(named("class")),
    union_specifier: withBody(named("type")),
    enum_specifier: withBody(named("type")),
    namespace_definition: withBody(named("namespace")),
  },
};

/**
 * Grammars without a table (C#, Ruby, PHP): a node with a `name` field whose type says it defines
 * something. Types naming a use rather than a definition (calls, references…) are left out.
 */
const GENERIC = /function|method|constructor|class|interface|struct|enum|impl|trait|module|namespace|record/;
const NOT_A_DEFINITION = /call|expression|reference|access|argument|parameter|invocation|identifier|constant|name$|type$|specifier|modifier|clause|list|body/;

const GENERIC_KINDS: [RegExp, DefKind][] = [
  [/method|constructor/, "method"],
  [/function/, "function"],
  [/interface|enum|trait/, "type"],
  [/module|namespace/, "namespace"],
];

function genericRule(node: Node): { kind: DefKind; names: string[] } | undefined {
  const name = field(node, "name");
  if (!name) return undefined;
  const kind = GENERIC_KINDS.find(([pattern]) => pattern.test(node.type))?.[1] ?? "class";
  return { kind, names: [name] };
}

function isCandidate(grammar: Grammar, type: string): boolean {
  const table = TABLES[grammar];
  return table ? Object.hasOwn(table, type) : GENERIC.test(type) && !NOT_A_DEFINITION.test(type);
}
