import { describe, expect, it } from "vitest";
import { folderProblem } from "../../src/hosts/vscode/chat/workspaceFolder";
import { checkpointChangesTitle, checkpointDiffTitle, restoreSummary } from "../../src/hosts/vscode/history/checkpointWords";
import { blockedServersNotice } from "../../src/hosts/vscode/mcp/blockedNotice";
import { changedFilesTitle, changeKindText, changeLensTitle, proposalDiffTitle, taskDiffTitle } from "../../src/hosts/vscode/review/reviewWords";
import { inPseudoLocale, translated, useEnglish } from "./pseudoL10n";

const KINDS = ["created", "modified", "deleted"] as const;
const files = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);

/** Every text the editor shows of the review, the checkpoints, the MCP notice and the folder check. */
function allTexts(): string[] {
  return [
    ...KINDS.flatMap((kind) => [changeKindText(kind), taskDiffTitle("src/a.ts", kind)]),
    changedFilesTitle(1),
    changedFilesTitle(3),
    proposalDiffTitle("src/a.ts", true),
    proposalDiffTitle("src/a.ts", false),
    changeLensTitle(0, 2),
    ...[0, 1, 2].flatMap((restored) => [0, 1, 2].map((removed) => restoreSummary({ restored: files(restored), removed: files(removed) }))),
    checkpointDiffTitle("a.txt", "0123abcd"),
    checkpointChangesTitle("0123abcd"),
    ...[true, false].flatMap((untrusted) => [blockedServersNotice(["db"], 1, untrusted), blockedServersNotice(["db", "web"], 2, untrusted), blockedServersNotice(["db"], 3, untrusted)]),
    folderProblem({ scheme: "vscode-vfs", toString: () => "vscode-vfs://github/kiln/demo" })!,
  ];
}

describe("the editor's words from the host, in the user's language", () => {
  inPseudoLocale();

  it("each is one translated message", () => {
    for (const text of allTexts()) expect(translated(text), text).toBe(true);
  });
});

describe("the editor's words from the host, in English", () => {
  it("whole sentences, each count with its own plural", () => {
    useEnglish();
    expect(changedFilesTitle(1)).toBe("Files this task changed (1)");
    expect(changedFilesTitle(4)).toBe("Files this task changed (4)");
    expect(proposalDiffTitle("src/a.ts", true)).toBe("src/a.ts: new file ↔ Kiln's proposal");
    expect(proposalDiffTitle("src/a.ts", false)).toBe("src/a.ts: original ↔ Kiln's proposal");
    expect(taskDiffTitle("a.ts", "deleted")).toBe("a.ts: before the task ↔ now (deleted)");
    expect(changeLensTitle(1, 2)).toBe("Change 2 of 2");
    expect(restoreSummary({ restored: [], removed: [] })).toBe("The files already matched the checkpoint.");
    expect(restoreSummary({ restored: files(1), removed: files(2) })).toBe("Restored 1 file and removed 2 files created since the checkpoint.");
    expect(restoreSummary({ restored: files(3), removed: files(1) })).toBe("Restored 3 files and removed 1 file created since the checkpoint.");
    expect(checkpointDiffTitle("a.txt", "0123abcd")).toBe("a.txt (checkpoint 0123abcd ↔ now)");
    expect(blockedServersNotice(["db"], 1, true)).toBe("This project's .kilocode/mcp.json defines 1 MCP server (db). Kiln has not started it because this workspace is not trusted.");
    expect(blockedServersNotice(["db", "web"], 2, false)).toBe("This project's .kilocode/mcp.json defines 2 MCP servers (db, web). Kiln has not started them.");
    expect(blockedServersNotice(["db"], 3, true)).toBe("This project's .kilocode/mcp.json defines 3 MCP servers. Kiln has not started 1 of them (db) because this workspace is not trusted.");
  });
});
