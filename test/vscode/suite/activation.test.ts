import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { EXTENSION_ID, kiln, waitFor } from "./helpers";

describe("Kiln in the real extension host", () => {
  it("activates and registers its commands", async () => {
    await kiln();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const id of ["kiln.newTask", "kiln.openInTab", "kiln.setApiKey"]) assert.ok(commands.includes(id), `${id} is registered`);
  });

  it("resolves the sidebar chat view, whose webview loads and says it is ready", async () => {
    const api = await kiln();
    const snapshots: unknown[] = [];
    const listener = api.sidebar.onDidPost((m) => m.type === "chat/snapshot" && snapshots.push(m));
    await vscode.commands.executeCommand("kiln.chatView.focus");
    const view = await waitFor("the chat view to resolve", () => api.view.resolved);
    assert.equal(view.viewType, "kiln.chatView");
    assert.match(view.webview.html, /Content-Security-Policy/);
    // Only the real webview's script sends view/ready, and the host answers with a snapshot.
    await waitFor("the webview's view/ready", () => snapshots.length > 0 || undefined, 30_000);
    listener.dispose();
  });

  it("opens the chat in an editor tab", async () => {
    await kiln();
    await vscode.commands.executeCommand("kiln.openInTab");
    const tab = await waitFor("a Kiln editor tab", () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes("kiln.chatTab")),
    );
    assert.equal(tab.label, "Kiln");
    await vscode.window.tabGroups.close(tab);
  });
});
