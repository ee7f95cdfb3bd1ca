import * as l10n from "@vscode/l10n";
import { useEffect, useRef } from "react";
import type { ToolStatus } from "../../../src/shared/protocol/chat";
import type { ToolField, ToolHunk, ToolViewBody } from "../../../src/shared/toolView";
import { Markdown } from "../Markdown";
import { Checklist } from "./Checklist";
import { Collapsible } from "./Collapsible";
import { countLines } from "./diffText";

/**
 * The card's body while the call's arguments stream and after: what it reads, writes or runs, as
 * its tool presents it. Drawn by the kind of body alone; a file or a diff follows its end while
 * the arguments stream. `folded`: the approval box shows the change itself, so a diff folds.
 */
export function ToolBody({ body, status, folded = false }: { body: ToolViewBody | undefined; status: ToolStatus; folded?: boolean }) {
  if (!body) return null;
  const streaming = status === "streaming";
  switch (body.kind) {
    case "fields":
      return <Fields fields={body.fields} />;
    case "file":
      return <WritePreview content={body.content} streaming={streaming} />;
    case "diff":
      return <DiffPreview hunks={body.hunks} streaming={streaming} folded={folded} />;
    case "command":
      return (
        <>
          <pre className="command-line" data-testid="command-line">
            <code>{body.command}</code>
          </pre>
          {body.fields && <Fields fields={body.fields} />}
        </>
      );
    case "files":
      return <FileList files={body.files} />;
    case "markdown":
      return <Markdown className="tool-markdown" text={body.text} />;
    case "checklist":
      return (
        <>
          {body.text && <Markdown className="tool-markdown" text={body.text} />}
          <Checklist items={body.items} />
        </>
      );
    default:
      return null;
  }
}

/** Label / value rows; a value of several lines, or one marked as code, shows as code. */
function Fields({ fields }: { fields: ToolField[] }) {
  if (fields.length === 0) return null;
  return (
    <dl className="tool-fields">
      {fields.map((field, i) => (
        <div key={i} className="tool-field">
          <dt>{field.label}</dt>
          <dd>{field.code || field.value.includes("\n") ? <code>{field.value}</code> : field.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function FileList({ files }: { files: { path: string; note?: string }[] }) {
  return (
    <ul className="tool-files">
      {files.map((file, i) => (
        <li key={i}>
          {file.path}
          {file.note && <span className="tool-dim"> {file.note}</span>}
        </li>
      ))}
    </ul>
  );
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
    <Collapsible className="tool-preview" testId="write-preview" autoOpen={streaming} summary={lines === 1 ? l10n.t("1 line") : l10n.t("{0} lines", lines)}>
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

/** One hunk: where, then its removed and added lines. */
function Hunk({ hunk }: { hunk: ToolHunk }) {
  return (
    <div className="diff-block" data-testid="diff-block">
      {hunk.label && <div className="tool-dim">{hunk.label}</div>}
      {hunk.removed.length > 0 && <Lines kind="del" lines={hunk.removed} />}
      {hunk.added.length > 0 && <Lines kind="add" lines={hunk.added} />}
    </div>
  );
}

/** A change this small shows as it is; a larger one folds under its count, open while it streams. */
const INLINE_LINES = 12;

function DiffPreview({ hunks, streaming, folded }: { hunks: ToolHunk[]; streaming: boolean; folded: boolean }) {
  if (hunks.length === 0) return null;
  const removed = hunks.reduce((n, h) => n + h.removed.length, 0);
  const added = hunks.reduce((n, h) => n + h.added.length, 0);
  if (!folded && hunks.length === 1 && removed + added <= INLINE_LINES) return <Hunk hunk={hunks[0]!} />;
  return (
    <Collapsible
      className="tool-preview"
      testId="diff-preview"
      autoOpen={streaming}
      summary={hunks.length === 1 ? l10n.t("1 change: −{0} +{1}", removed, added) : l10n.t("{0} changes: −{1} +{2}", hunks.length, removed, added)}
    >
      {() => hunks.map((hunk, i) => <Hunk key={i} hunk={hunk} />)}
    </Collapsible>
  );
}
