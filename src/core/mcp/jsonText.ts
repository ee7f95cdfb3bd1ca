import { applyEdits, findNodeAtLocation, modify, parseTree, type JSONPath, type Node } from "jsonc-parser";

/**
 * Small edits of JSON text that leave everything else as written. jsonc-parser's own formatter
 * re-lays out whole lines around an edit (a one-line entry next to the change comes out spread
 * over several lines), so insertions and removals are placed here by hand, in the layout of the
 * object or list they go into; jsonc-parser finds the nodes and replaces single values.
 */

export function nodeAt(text: string, path: JSONPath): Node | undefined {
  const root = parseTree(text);
  return root && findNodeAtLocation(root, path);
}

/** Replaces an existing value in place (jsonc-parser, without its formatter: only the value changes). */
export function replaceValue(text: string, path: JSONPath, value: unknown): string {
  return applyEdits(text, modify(text, path, value, {}));
}

/** Adds `"key": value` as the last property of the object at `path`. */
export function addProperty(text: string, path: JSONPath, key: string, value: unknown): string {
  const object = nodeAt(text, path);
  if (object?.type !== "object") throw new Error(`no object at ${path.join(".")}`);
  return insertLast(text, object, (indent) => `${JSON.stringify(key)}: ${render(text, value, indent)}`);
}

/** Adds a value at the end of the list at `path`. */
export function appendElement(text: string, path: JSONPath, value: unknown): string {
  const list = nodeAt(text, path);
  if (list?.type !== "array") throw new Error(`no list at ${path.join(".")}`);
  return insertLast(text, list, (indent) => render(text, value, indent));
}

/** Removes the property or list element at `path`, with its comma and the line it stood on. */
export function removeAt(text: string, path: JSONPath): string {
  const value = nodeAt(text, path);
  const child = value?.parent?.type === "property" ? value.parent : value;
  const container = child?.parent;
  const siblings = container?.children ?? [];
  const index = child ? siblings.indexOf(child) : -1;
  if (!child || !container || index < 0) return text;
  const end = (n: Node) => n.offset + n.length;
  // After the first: from the previous one's end, so the comma and the line break before go too.
  if (index > 0) return cut(text, end(siblings[index - 1]!), end(child));
  if (siblings.length > 1) return cut(text, child.offset, siblings[1]!.offset);
  return cut(text, container.offset + 1, end(container) - 1);
}

function cut(text: string, from: number, to: number): string {
  return text.slice(0, from) + text.slice(to);
}

function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

function insertLast(text: string, container: Node, item: (indent: string | undefined) => string): string {
  const eol = eolOf(text);
  const children = container.children ?? [];
  const last = children.at(-1);
  if (last) {
    const at = last.offset + last.length;
    const multiLine = text.slice(container.offset, last.offset).includes("\n");
    const indent = multiLine ? indentOfLine(text, last.offset) : undefined;
    return text.slice(0, at) + "," + (indent === undefined ? " " : eol + indent) + item(indent) + text.slice(at);
  }
  const [open, close] = container.type === "object" ? ["{", "}"] : ["[", "]"];
  // An empty object in a file laid out over lines opens up; an empty list stays on its line.
  const spread = container.type === "object" && text.includes("\n");
  const lineIndent = indentOfLine(text, container.offset);
  const inner = lineIndent + indentUnit(text);
  const body = spread ? eol + inner + item(inner) + eol + lineIndent : item(undefined);
  return text.slice(0, container.offset) + open + body + close + text.slice(container.offset + container.length);
}

function indentOfLine(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

/** The file's own indentation step: its first indented line's (a tab or some spaces); two spaces if none. */
export function indentUnit(text: string): string {
  const first = /^([ \t]+)\S/m.exec(text)?.[1];
  if (first?.startsWith("\t")) return "\t";
  return first ?? "  ";
}

/**
 * A value laid out over lines at `indent`, or on one line (undefined); lists of plain values stay
 * on one line either way, as people write `"args": ["-y", "server"]`.
 */
function render(text: string, value: unknown, indent: string | undefined): string {
  const flat = Array.isArray(value) ? value.every((v) => typeof v !== "object" || v === null) : typeof value !== "object" || value === null;
  if (indent === undefined || flat) return oneLine(value);
  const inner = indent + indentUnit(text);
  const items = Array.isArray(value) ? value.map((v) => render(text, v, inner)) : Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}: ${render(text, v, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (items.length === 0) return open + close;
  const eol = eolOf(text);
  return open + eol + items.map((item) => inner + item).join("," + eol) + eol + indent + close;
}

/** With a space after each comma and colon. JSON.stringify escapes line breaks in strings, so every one it writes is layout. */
function oneLine(value: unknown): string {
  return JSON.stringify(value, null, 1)
    .replace(/([[{])\n */g, "$1")
    .replace(/\n *([\]}])/g, "$1")
    .replace(/\n */g, " ");
}
