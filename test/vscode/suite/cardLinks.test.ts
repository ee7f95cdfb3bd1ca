import * as assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as vscode from "vscode";
import { openChatFile } from "../../../src/hosts/vscode/chat/chatLinks";

describe("the path on a tool card", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const folder = join(workspace, "card-links");
  const outside = mkdtempSync(join(tmpdir(), "kiln-outside-"));
  const warnings: string[] = [];
  const logger = { info: () => undefined, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };

  before(() => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "lines.txt"), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    writeFileSync(join(outside, "secret.txt"), "not the workspace's\n");
    symlinkSync(join(outside, "secret.txt"), join(folder, "out.txt"));
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(folder, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("opens the file in the editor at the first line the call read", async () => {
    await openChatFile("card-links/lines.txt", 12, logger, "test");
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, join(folder, "lines.txt"));
    assert.equal(editor?.selection.active.line, 11);
    assert.equal(editor?.document.lineAt(editor.selection.active.line).text, "line 12");
  });

  it("opens nothing outside the workspace, however the path is spelled", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    warnings.length = 0;
    const spellings = [
      join(outside, "secret.txt"),
      relative(workspace, join(outside, "secret.txt")),
      "card-links/out.txt",
      "card-links/../../" + relative(join(workspace, ".."), join(outside, "secret.txt")),
    ];
    for (const path of spellings) await openChatFile(path, undefined, logger, "test");
    assert.equal(vscode.window.activeTextEditor, undefined);
    assert.deepEqual(
      vscode.workspace.textDocuments.filter((d) => d.uri.fsPath.startsWith(outside)).map((d) => d.uri.fsPath),
      [],
    );
    assert.equal(warnings.length, spellings.length, warnings.join("\n"));
  });

  it("a path that does not exist opens nothing and throws nothing", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await openChatFile("card-links/not-yet.ts", 3, logger, "test");
    assert.equal(vscode.window.activeTextEditor, undefined);
  });
});
