import { useEffect, useRef } from "react";
import type { ToolItem } from "../../../src/shared/protocol/chat";
import { Checklist } from "./Checklist";
import { Collapsible } from "./Collapsible";
import { countLines, parseDiffBlocks, type DiffBlock } from "./diffText";

type Params = Record<string, string>;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `10-40`, `10-` or `1-40` from read_file's optional start and end lines. */
function lineRange(params: Params): string {
  const { start_line: start, end_line: end } = params;
  return start || end ? `:${start ?? "1"}-${end ?? ""}` : "";
}

/** What the call works on, for the card's title: a path (with the lines read), a mode, an action. */
export function toolTarget(item: ToolItem): string {
  const p = item.params;
  switch (item.name) {
    case "read_file":
      if (p.args !== undefined && p.path === undefined) return plural(filesToRead(p.args).length, "file");
      return `${p.path ?? ""}${lineRange(p)}`;
    case "execute_command":
      return "";
    case "browser_action":
      return p.action ?? "";
    case "new_task":
      return p.mode ?? "";
    case "switch_mode":
      return p.mode_slug ?? "";
    case "use_mcp_tool":
      return [p.server_name, p.tool_name].filter(Boolean).join(" · ");
    default:
      return p.path ?? p.url ?? "";
  }
}

/** read_file's several-files form: `<file><path>a.ts</path><line_range>1-40</line_range></file>…`. */
function filesToRead(args: string): { path: string; ranges: string[] }[] {
  return [...args.matchAll(/<file>([\s\S]*?)(?:<\/file>|$)/g)].map((m) => ({
    path: /<path>([\s\S]*?)(?:<\/path>|$)/.exec(m[1]!)?.[1]?.trim() ?? "",
    ranges: [...m[1]!.matchAll(/<line_range>([\s\S]*?)(?:<\/line_range>|$)/g)].map((r) => r[1]!.trim()),
  }));
}

/** The card's body while its parameters stream and after: what the call reads, writes or runs. */
export function ToolBody({ item }: { item: ToolItem }) {
  const p = item.params;
  const streaming = item.status === "streaming";
  switch (item.name) {
    case "read_file":
      return p.args !== undefined ? <ReadFiles args={p.args} /> : null;
    case "list_files":
      return <Fields rows={[["in", p.path], ["depth", p.recursive === "true" ? "recursive" : p.recursive === undefined ? undefined : "top level"]]} />;
    case "search_files":
      return <Fields code rows={[["regex", p.regex], ["in", p.path], ["files", p.file_pattern]]} />;
    case "write_to_file":
      return <WritePreview content={p.content} streaming={streaming} />;
    case "apply_diff":
      return p.diff === undefined ? null : <DiffPreview blocks={parseDiffBlocks(p.diff)} streaming={streaming} />;
    case "insert_content":
      return (
        <>
          <Fields rows={[["where", p.line === undefined ? undefined : p.line === "0" ? "at the end" : `before line ${p.line}`]]} />
          {p.content !== undefined && <Lines kind="add" lines={toLines(p.content)} />}
        </>
      );
    case "search_and_replace":
      return <SearchReplace params={p} />;
    case "execute_command":
      return (
        <>
          {p.command !== undefined && (
            <pre className="command-line" data-testid="command-line">
              <code>{p.command}</code>
            </pre>
          )}
          <Fields rows={[["in", p.cwd], ["timeout", p.timeout && `${p.timeout} s`]]} />
        </>
      );
    case "browser_action":
      return <Fields rows={[["url", p.url], ["at", p.coordinate], ["size", p.size], ["text", p.text]]} />;
    case "update_todo_list":
      return p.todos === undefined ? null : <Checklist text={p.todos} />;
    case "new_task":
      return (
        <>
          {p.message !== undefined && <div className="tool-text">{p.message}</div>}
          {p.todos !== undefined && <Checklist text={p.todos} />}
        </>
      );
    case "switch_mode":
      return p.reason ? <div className="tool-text">{p.reason}</div> : null;
    case "ask_followup_question":
    case "attempt_completion": {
      // Their own chat item shows them once the call has run; until then the card previews them.
      const text = item.name === "ask_followup_question" ? p.question : p.result;
      return item.status === "streaming" || item.status === "waiting" ? (text ? <div className="tool-text">{text}</div> : null) : null;
    }
    default:
      return <Fields rows={Object.entries(p)} />;
  }
}

/** Label / value rows; values that are absent (not streamed yet) are left out. */
function Fields({ rows, code = false }: { rows: [string, string | undefined][]; code?: boolean }) {
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== "");
  if (shown.length === 0) return null;
  return (
    <dl className="tool-fields">
      {shown.map(([label, value]) => (
        <div key={label} className="tool-field">
          <dt>{label}</dt>
          <dd>{code || value.includes("\n") ? <code>{value}</code> : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ReadFiles({ args }: { args: string }) {
  return (
    <ul className="tool-files">
      {filesToRead(args).map((file, i) => (
        <li key={i}>
          {file.path}
          {file.ranges.length > 0 && <span className="tool-dim"> lines {file.ranges.join(", ")}</span>}
        </li>
      ))}
    </ul>
  );
}

/** A parameter's lines; the newline that ends the last one starts no line of its own. */
function toLines(text: string): string[] {
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}

/** Lines shown as a diff side: `+` added, `-` removed; one block each, as in the approval diff. */
function Lines({ kind, lines }: { kind: "add" | "del"; lines: string[] }) {
  return (
    <pre className="diff-lines">
      {lines.map((line, i) => (
        <span key={i} className={`diff-line diff-${kind}`}>
          {kind === "add" ? "+" : "-"}
          {line}
        </span>
      ))}
    </pre>
  );
}

/** The file's new content, open and following the end while it streams; folded once written. */
function WritePreview({ content, streaming }: { content: string | undefined; streaming: boolean }) {
  if (content === undefined) return null;
  const lines = countLines(content);
  return (
    <Collapsible className="tool-preview" testId="write-preview" autoOpen={streaming} summary={plural(lines, "line")}>
      {() => <FollowingPre text={content} follow={streaming} />}
    </Collapsible>
  );
}

function FollowingPre({ text, follow }: { text: string; follow: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (follow && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [text, follow]);
  return (
    <pre ref={ref} className="code-preview">
      {text}
    </pre>
  );
}

function DiffPreview({ blocks, streaming }: { blocks: DiffBlock[]; streaming: boolean }) {
  if (blocks.length === 0) return null;
  const removed = blocks.reduce((n, b) => n + b.search.length, 0);
  const added = blocks.reduce((n, b) => n + b.replace.length, 0);
  return (
    <Collapsible className="tool-preview" testId="diff-preview" autoOpen={streaming} summary={`${plural(blocks.length, "change")}: −${removed} +${added}`}>
      {() =>
        blocks.map((block, i) => (
          <div key={i} className="diff-block" data-testid="diff-block">
            {block.startLine !== undefined && <div className="tool-dim">at line {block.startLine}</div>}
            {block.search.length > 0 && <Lines kind="del" lines={block.search} />}
            {block.replace.length > 0 && <Lines kind="add" lines={block.replace} />}
          </div>
        ))
      }
    </Collapsible>
  );
}

function SearchReplace({ params: p }: { params: Params }) {
  const flags = [p.use_regex === "true" && "regex", p.ignore_case === "true" && "ignore case", (p.start_line || p.end_line) && `lines ${p.start_line ?? "1"}-${p.end_line ?? "end"}`]
    .filter(Boolean)
    .join(", ");
  return (
    <>
      {flags && <div className="tool-dim">{flags}</div>}
      {p.search !== undefined && <Lines kind="del" lines={toLines(p.search)} />}
      {p.replace !== undefined && (p.replace === "" ? <div className="tool-dim">(deleted)</div> : <Lines kind="add" lines={toLines(p.replace)} />)}
    </>
  );
}
