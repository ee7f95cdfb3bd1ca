import * as l10n from "@vscode/l10n";
import { useEffect, useRef, useState } from "react";
import type { CallControl, ToolItem, ToolStatus } from "../../src/shared/protocol/chat";
import { titleAround, toolHeading, type ToolView } from "../../src/shared/toolView";
import { Collapsible } from "./cards/Collapsible";
import { diffStats, unifiedLineKind } from "./cards/diffText";
import { ToolBody } from "./cards/ToolBody";
import { slot, withSlots } from "./l10nSlots";
import { send } from "./vscodeApi";

/** The state a card's badge shows. */
function statusLabel(status: ToolStatus): string {
  switch (status) {
    case "streaming":
      return l10n.t("streaming");
    case "waiting":
      return l10n.t("waiting");
    case "running":
      return l10n.t("running");
    case "done":
      return l10n.t("done");
    case "denied":
      return l10n.t("denied");
    case "error":
      return l10n.t("failed");
  }
}

/** The call as its tool presents it; a card saved without a view shows its name and parameters. */
function viewOf(item: ToolItem): ToolView {
  return item.view ?? { icon: "tools", title: item.name, body: { kind: "fields", fields: Object.entries(item.params).map(([label, value]) => ({ label, value })) } };
}

/** What the call works on: a path opens in the editor, a command line is code. */
function Target({ view }: { view: ToolView }) {
  const { link } = view;
  if (link)
    return (
      <a
        className="tool-target"
        href="#"
        data-testid="tool-link"
        title={l10n.t("Open {0}", link.path)}
        onClick={(event) => {
          event.preventDefault();
          send({ type: "chat/openFile", path: link.path, ...(link.line !== undefined && { line: link.line }) });
        }}
      >
        {view.target}
      </a>
    );
  return view.code ? <code className="tool-target tool-code">{view.target}</code> : <span className="tool-target">{view.target}</span>;
}

/** The title with the target where the sentence (in the display language) puts it. */
function TitleSentence({ view }: { view: ToolView }) {
  if (!view.target) return <span className="tool-name">{view.title}</span>;
  const { before, after } = titleAround(view);
  return (
    <>
      {before.trim() && <span className="tool-name">{before}</span>}
      <Target view={view} />
      {after.trim() && <span className="tool-name">{after}</span>}
    </>
  );
}

/**
 * A tool call: its parameters while they stream, Approve / Reject while it waits for the user,
 * then its state and result. The title is one line of text, a sentence (`Kiln wants to edit
 * src/a.ts waiting`): screen readers and e2e tests read it that way. It wraps rather than cut, so
 * the state after a long path stays in view.
 */
export function ToolCard({ item }: { item: ToolItem }) {
  const waiting = item.status === "waiting" && item.approval !== undefined;
  const view = viewOf(item);
  return (
    <div className="message tool" data-testid="message-tool" data-status={item.status} data-card={item.id} data-tool={item.name}>
      <div className="tool-title" title={toolHeading(view)}>
        {view.icon && <span className={`codicon codicon-${view.icon} tool-icon`} aria-hidden="true" />}
        <TitleSentence view={view} />{" "}
        <span className={`tool-status status-${item.status}`} data-testid="tool-status">
          {statusLabel(item.status)}
        </span>
      </div>
      <ToolBody body={view.body} status={item.status} folded={waiting && item.approval?.diff !== undefined} />
      {item.status === "running" && item.progress && (
        <div className="tool-progress" role="status" data-testid="tool-progress">
          {item.progress}
        </div>
      )}
      {item.status === "running" && item.output && <LiveOutput output={item.output} />}
      {item.status === "running" && (item.controls?.length ?? 0) > 0 && <CallControls id={item.id} controls={item.controls!} command={view.body?.kind === "command"} />}
      {waiting && <ApprovalBox id={item.id} approval={item.approval!} />}
      {item.note && (
        <div className="tool-note" data-testid="tool-note">
          {item.note}
        </div>
      )}
      {item.result !== undefined && item.result !== "" && <ToolResult item={item} output={view.body?.kind === "command"} />}
    </div>
  );
}

/** What a running call has printed so far, kept scrolled to the newest line. */
function LiveOutput({ output }: { output: string }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const pre = ref.current;
    if (pre) pre.scrollTop = pre.scrollHeight;
  }, [output]);
  return (
    <pre ref={ref} className="tool-live-output" data-testid="tool-live-output" aria-live="off">
      {output}
    </pre>
  );
}

/** Continue while running and Stop (and, for a command, the terminal it runs in) on a running call's card. */
function CallControls({ id, controls, command }: { id: string; controls: readonly CallControl[]; command: boolean }) {
  return (
    <div className="call-controls">
      {controls.includes("continue") && (
        <button
          className="secondary"
          data-testid="call-continue"
          title={l10n.t("The model gets the output so far and goes on; the command keeps running")}
          onClick={() => send({ type: "chat/callControl", id, control: "continue" })}
        >
          {l10n.t("Continue while running")}
        </button>
      )}
      {controls.includes("stop") && (
        <button className="secondary" data-testid="call-stop" title={l10n.t("End this command; the task goes on")} onClick={() => send({ type: "chat/callControl", id, control: "stop" })}>
          {l10n.t("Stop")}
        </button>
      )}
      {command && (
        <button className="link-button" data-testid="show-terminal" onClick={() => send({ type: "chat/showTerminal" })}>
          {l10n.t("Show terminal")}
        </button>
      )}
    </div>
  );
}

/**
 * What the model was told. Folded unless the call failed: then the error is what matters, unless
 * the card's note already says why in a sentence (a mode or a rule refused it).
 */
function ToolResult({ item, output }: { item: ToolItem; output: boolean }) {
  const summary = item.note
    ? l10n.t("What Kiln told the model")
    : item.status === "error"
      ? l10n.t("Error")
      : item.status === "denied"
        ? l10n.t("Denied")
        : output
          ? l10n.t("Output")
          : l10n.t("Result");
  return (
    <Collapsible className="tool-result" testId="tool-result" autoOpen={item.status === "error" && !item.note} summary={summary}>
      {() => <pre>{item.result}</pre>}
    </Collapsible>
  );
}

/**
 * The proposed change as a unified diff, each line coloured by what it does. One block per line
 * and no newline characters: copied or read as innerText, the lines come out once each.
 */
function DiffView({ diff }: { diff: string }) {
  return (
    <pre className="diff" data-testid="approval-diff">
      {diff.split("\n").map((line, i) => (
        <span key={i} className={`diff-line diff-${unifiedLineKind(line)}`}>
          {line}
        </span>
      ))}
    </pre>
  );
}

/**
 * The change while VS Code's diff editor shows it: one line to sum it up (what is left after a
 * change was discarded there), the diff itself folded below.
 */
function FoldedDiff({ diff }: { diff: string }) {
  const { added, removed, changes } = diffStats(diff);
  const summary =
    changes === 0
      ? l10n.t("No change left: every change was discarded")
      : withSlots(changes === 1 ? l10n.t("{0} {1}, 1 change, open in the diff editor", slot(0), slot(1)) : l10n.t("{0} {1}, {2} changes, open in the diff editor", slot(0), slot(1), changes), [
          <span key="added" className="diff-add-count">
            +{added}
          </span>,
          <span key="removed" className="diff-del-count">
            −{removed}
          </span>,
        ]);
  return (
    <Collapsible className="approval-diff-folded" testId="approval-diff-summary" summary={summary}>
      {() => <DiffView diff={diff} />}
    </Collapsible>
  );
}

function ApprovalBox({ id, approval }: { id: string; approval: NonNullable<ToolItem["approval"]> }) {
  const [feedback, setFeedback] = useState("");
  const approveRef = useRef<HTMLButtonElement>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  // Keyboard first: Enter approves, unless the user is typing (never take their keystrokes).
  useEffect(() => {
    const typing = document.activeElement instanceof HTMLTextAreaElement || document.activeElement instanceof HTMLInputElement;
    if (!typing) approveRef.current?.focus();
  }, []);
  const answer = (approved: boolean) => send({ type: "chat/approval", id, approved, ...(approved || !feedback.trim() ? {} : { feedback: feedback.trim() }) });
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      feedbackRef.current?.focus();
    }
  };
  return (
    <div className="approval" data-testid="approval" onKeyDown={onKeyDown}>
      <div className="approval-summary">
        {approval.summary}
        {approval.outsideWorkspace && <span className="badge"> {l10n.t("outside the workspace")}</span>}
        {approval.protectedPaths?.length ? <span className="badge"> {l10n.t("protected: {0}", approval.protectedPaths.join(", "))}</span> : null}
      </div>
      {approval.reason && <div className="approval-reason">{approval.reason}</div>}
      {approval.diff && (approval.inEditor ? <FoldedDiff diff={approval.diff} /> : <DiffView diff={approval.diff} />)}
      <div className="approval-actions">
        <button ref={approveRef} data-testid="approve" onClick={() => answer(true)}>
          {l10n.t("Approve")}
        </button>
        <button className="secondary" data-testid="reject" onClick={() => answer(false)}>
          {l10n.t("Reject")}
        </button>
      </div>
      <textarea
        ref={feedbackRef}
        data-testid="feedback"
        rows={2}
        placeholder={l10n.t("Reject with feedback (Enter sends, Shift+Enter for a new line)")}
        value={feedback}
        onChange={(e) => setFeedback(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && feedback.trim()) {
            e.preventDefault();
            answer(false);
          }
        }}
      />
    </div>
  );
}
