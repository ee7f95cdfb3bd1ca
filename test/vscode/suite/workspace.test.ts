import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { DEFAULT_RETRY } from "../../../src/core/agent/retry";
import { ChatSession } from "../../../src/hosts/vscode/chat/ChatSession";
import { folderProblem } from "../../../src/hosts/vscode/chat/workspaceFolder";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import { waitFor } from "./helpers";

describe("a window whose folder is not on disk", () => {
  it("the chat says why it has no tools, in every new task, and answers as a plain chat", async () => {
    const folder = vscode.Uri.parse("vscode-vfs://github/kiln/demo");
    const warnings: string[] = [];
    // The extension's own deps for such a window: no toolbox (agentSetup gives none), and the folder's problem.
    const session = new ChatSession("virtual", {
      logger: { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
      getProvider: () => Promise.reject(new Error("no model in this test")),
      providerSummary: () => ({ kind: "openai", model: "gpt-test", images: false }),
      retryPolicy: () => ({ ...DEFAULT_RETRY, maxRetries: 0 }),
      modelOverrides: () => undefined,
      createToolbox: () => undefined,
      workspaceProblem: () => folderProblem(folder),
    });
    const posted: HostToWebview[] = [];
    const listener = session.onDidPost((m) => posted.push(m));
    try {
      const snapshotOf = async () => {
        const snapshot = await waitFor("a snapshot", () => posted.find((m) => m.type === "chat/snapshot"));
        posted.length = 0;
        return snapshot;
      };
      await session.receive({ type: "view/ready" });
      const first = await snapshotOf();
      assert.equal(first.task?.mode, "chat", "a folder Kiln cannot reach gets no modes and no tools");
      assert.deepEqual(first.items, [{ id: "workspace-problem", role: "error", error: { kind: "config", retryable: false, message: folderProblem(folder) } }]);
      assert.match(first.items[0]!.role === "error" ? first.items[0]!.error.message : "", /vscode-vfs:\/\/github\/kiln\/demo\) is not on a file system Kiln can reach/);
      session.newTask();
      const next = await snapshotOf();
      assert.equal(next.items.length, 1, "a new task says it again");
    } finally {
      listener.dispose();
      session.dispose();
    }
  });
});
