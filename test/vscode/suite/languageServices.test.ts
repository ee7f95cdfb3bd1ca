import * as assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, reviewTab, setKiln, textOf, toolCards, waitFor, xmlCall } from "./helpers";

const SHAPES = `export interface Shape {
  area(): number;
}

export function totalArea(shapes: Shape[]): number {
  return shapes.reduce((sum, shape) => sum + shape.area(), 0);
}
`;

const SQUARE = `import { type Shape, totalArea } from "./shapes";

export class Square implements Shape {
  constructor(private readonly side: number) {}
  area(): number {
    return this.side * this.side;
  }
}

export function report(): string {
  return \`total \${totalArea([new Square(2), new Square(3)])}\`;
}
`;

/** TypeScript's server starts with its extension and loads the project before it answers: on two busy cores, a while. */
const SERVER_START_MS = 90_000;

/** Asks VS Code for a definition until the TypeScript server answers (bounded): it is up once it does. */
async function typescriptReady(file: vscode.Uri, position: vscode.Position): Promise<void> {
  const deadline = Date.now() + SERVER_START_MS;
  await vscode.workspace.openTextDocument(file);
  for (;;) {
    const found = await vscode.commands.executeCommand<unknown[]>("vscode.executeDefinitionProvider", file, position);
    if (found.length > 0) return;
    if (Date.now() > deadline) throw new Error(`the TypeScript language server did not answer within ${SERVER_START_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The code-intelligence tools in the real extension host, answered by the TypeScript server that code-server ships. */
describe("the editor's language services in a task", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const folder = join(workspace, "shapes");
  let server: FakeModelServer;
  before(async function () {
    this.timeout(SERVER_START_MS + 10_000);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "commonjs" }, include: ["*.ts"] }));
    writeFileSync(join(folder, "shapes.ts"), SHAPES);
    writeFileSync(join(folder, "square.ts"), SQUARE);
    server = await new FakeModelServer().start();
    // `totalArea` in square.ts's import: answered once the server has loaded the project.
    await typescriptReady(vscode.Uri.file(join(folder, "square.ts")), new vscode.Position(0, 24));
  });
  after(async () => {
    rmSync(folder, { recursive: true, force: true });
    await server.close();
  });

  it("go_to_definition, find_references, call_hierarchy and workspace_symbols answer from the TypeScript server", async function () {
    this.timeout(120_000);
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    api.sidebar.newTask();
    server.enqueue(
      xmlCall("go_to_definition", { path: "shapes/square.ts", line: 11, symbol: "totalArea" }),
      xmlCall("find_references", { path: "shapes/shapes.ts", line: 5, symbol: "totalArea" }),
      xmlCall("call_hierarchy", { path: "shapes/shapes.ts", line: 5, symbol: "totalArea", direction: "incoming" }),
      xmlCall("workspace_symbols", { query: "Square" }),
      xmlCall("attempt_completion", { result: "Found them." }),
    );
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "Where is totalArea defined and used?" }, 100_000);
    const cards = toolCards(posted);
    assert.deepEqual(
      cards.map((c) => [c.name, c.status]),
      [
        ["go_to_definition", "done"],
        ["find_references", "done"],
        ["call_hierarchy", "done"],
        ["workspace_symbols", "done"],
      ],
    );
    const [definition, references, callers, symbols] = cards.map((c) => c.result ?? "");
    // The definition, with its code: the server resolved the import to the declaration in the other file.
    assert.match(
      definition!,
      /^`totalArea` \(shapes\/square\.ts:11\) is defined in 1 place:\n\n## shapes\/shapes\.ts:5\n5 \| export function totalArea\(shapes: Shape\[\]\): number \{\n6 \| {3}return shapes\.reduce/,
    );
    // Every use, grouped by file, the file asked about first.
    assert.equal(
      references,
      [
        "`totalArea` (shapes/shapes.ts:5): 3 references in 2 files.",
        "",
        "# shapes/shapes.ts",
        "5 | export function totalArea(shapes: Shape[]): number {",
        "",
        "# shapes/square.ts",
        ' 1 | import { type Shape, totalArea } from "./shapes";',
        "11 | return `total ${totalArea([new Square(2), new Square(3)])}`;",
      ].join("\n"),
    );
    assert.match(
      callers!,
      /^Calls to `totalArea` \(function, shapes\/shapes\.ts:5\): 1 call from 1 caller\.\n\n## report \(function[^)]*\) — shapes\/square\.ts:10\nshapes\/square\.ts:11 \| return `total/,
    );
    assert.match(symbols!, /^- class Square — shapes\/square\.ts:3$/m);
    // The card names the symbol and links to where it was asked about.
    assert.equal(cards[0]!.view?.target, "totalArea");
    assert.deepEqual(cards[0]!.view?.link, { path: "shapes/square.ts", line: 11 });
  });

  it("rename_symbol: each file's change opens in the diff editor and is approved on its card, file by file", async function () {
    this.timeout(120_000);
    const api = await kiln();
    const restore = await setKiln({ autoApprove: ["read"] });
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      await configure("openai-compatible", server.openaiBaseUrl);
      api.sidebar.newTask();
      server.enqueue(xmlCall("rename_symbol", { path: "shapes/shapes.ts", line: 5, symbol: "totalArea", new_name: "sumOfAreas" }), { text: COMPLETE });
      const done = exchange(api.sidebar, { type: "chat/send", text: "Call totalArea sumOfAreas" }, 100_000);
      // The file asked about first, then the one that imports it: each waits for its own Approve.
      for (const file of ["shapes/shapes.ts", "shapes/square.ts"]) {
        const card = await waitFor(`the approval of ${file}`, () => toolCards(posted).find((c) => c.status === "waiting" && c.approval?.diff?.includes(`--- ${file}`)), 60_000);
        const tab = await waitFor(`the diff editor of ${file}`, () => (reviewTab()?.modified.path.endsWith(file.slice("shapes/".length)) ? reviewTab() : undefined));
        assert.match(await textOf(tab.modified), /sumOfAreas/);
        assert.doesNotMatch(readFileSync(join(workspace, file), "utf8"), /sumOfAreas/, "nothing is written before Approve");
        api.sidebar.receive({ type: "chat/approval", id: card.id, approved: true });
      }
      await done;
      assert.match(readFileSync(join(folder, "shapes.ts"), "utf8"), /^export function sumOfAreas\(shapes: Shape\[\]\): number \{$/m);
      assert.match(readFileSync(join(folder, "square.ts"), "utf8"), /return `total \$\{sumOfAreas\(\[new Square\(2\), new Square\(3\)\]\)\}`;/);
      const card = toolCards(posted).find((c) => c.name === "rename_symbol")!;
      assert.equal(card.status, "done");
      assert.match(card.result ?? "", /^Renamed `totalArea` to `sumOfAreas`: 3 changes in 2 files: shapes\/shapes\.ts \(1 change\), shapes\/square\.ts \(2 changes\)\.$/);
    } finally {
      listener.dispose();
      await restore();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });
});
