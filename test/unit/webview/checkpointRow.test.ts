// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatItem } from "../../../src/shared/protocol/chat";
import type { CheckpointItem } from "../../../src/shared/protocol/checkpoints";
import { parseWebviewMessage } from "../../../src/shared/protocol/messages";
import { el } from "./dom";
import { posted } from "./host";
import { Message, awaitingReply } from "./ui";

const checkpoint: CheckpointItem = { id: "m4", role: "checkpoint", message: "Before write_to_file a.txt", commit: "0123456789abcdef0123456789abcdef01234567", apiIndex: 2 };

function show(item: CheckpointItem) {
  return render(h(Message, { item, busy: false, last: false }));
}

beforeEach(() => {
  posted.length = 0;
});
afterEach(cleanup);

describe("a checkpoint row in the chat", () => {
  it("Diff since asks the host at once; each restore asks in the page first, and Cancel sends nothing", () => {
    show(checkpoint);
    expect(el(screen.getByTestId("checkpoint")).textContent).toContain("Checkpoint 01234567");
    fireEvent.click(screen.getByTestId("checkpoint-diff"));
    expect(posted).toEqual([{ type: "chat/checkpoint", id: "m4", action: "diff" }]);

    fireEvent.click(screen.getByTestId("checkpoint-restore-files"));
    expect(posted).toHaveLength(1);
    expect(el(screen.getByTestId("checkpoint-confirm")).textContent).toContain("Files created since are removed");
    fireEvent.click(screen.getByText("Cancel"));
    expect(screen.queryByTestId("checkpoint-confirm")).toBeNull();
    expect(posted).toHaveLength(1);

    fireEvent.click(screen.getByTestId("checkpoint-restore-task"));
    expect(el(screen.getByTestId("checkpoint-confirm")).textContent).toContain("Everything after it in the chat is removed");
    fireEvent.click(screen.getByRole("button", { name: "Restore files and task" }));
    expect(posted.at(-1)).toEqual({ type: "chat/checkpoint", id: "m4", action: "restoreTask" });
    expect(posted.every((m) => parseWebviewMessage(m).ok)).toBe(true);
  });

  it("a subtask's checkpoint offers no task restore; a skipped one is a note without buttons", () => {
    const { apiIndex: _apiIndex, ...subtask } = checkpoint;
    show(subtask);
    expect(screen.queryByTestId("checkpoint-restore-task")).toBeNull();
    expect(screen.getByTestId("checkpoint-restore-files")).toBeTruthy();
    cleanup();
    show({ id: "m5", role: "checkpoint", message: "Before write_to_file a.txt", note: "No checkpoint: the workspace is your home folder." });
    const row = screen.getByTestId("checkpoint");
    expect(el(row).textContent).toBe("No checkpoint: the workspace is your home folder.");
    expect(el(row).querySelector("button")).toBeNull();
  });

  it("after an edit's card and its checkpoint, the chat still shows that it waits for the model", () => {
    const card: ChatItem = { id: "m3", role: "tool", name: "write_to_file", params: {}, status: "done" };
    expect(awaitingReply([card, checkpoint], true)).toBe(true);
    expect(awaitingReply([{ ...card, status: "running" }, checkpoint], true)).toBe(false);
  });
});
