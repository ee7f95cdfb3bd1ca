import { describe, expect, it } from "vitest";
import { folderProblem } from "../../src/hosts/vscode/chat/workspaceFolder";

const uri = (text: string) => ({ scheme: text.slice(0, text.indexOf(":")), toString: () => text });

describe("a folder Kiln can work in", () => {
  it("works in any folder on disk, remote ones included (they are file: on the remote side)", () => {
    expect(folderProblem(uri("file:///home/me/project"))).toBeUndefined();
  });

  it("says plainly why a virtual workspace gets no tools, naming the folder and what to do", () => {
    for (const folder of ["vscode-vfs://github/kiln/demo", "memfs:/sample", "vscode-remote-virtual:/x"]) {
      const problem = folderProblem(uri(folder));
      expect(problem).toContain(`This folder (${folder}) is not on a file system Kiln can reach`);
      expect(problem).toContain("Clone or open the folder from disk");
    }
  });
});
