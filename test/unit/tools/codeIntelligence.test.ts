import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runToolCall, type ToolCallResult } from "../../../src/core/agent/pipeline";
import { presentTool } from "../../../src/core/agent/presenter";
import { createToolbox, type Toolbox } from "../../../src/core/agent/toolbox";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalDecision, ApprovalRequest, Approvals } from "../../../src/core/ports/approvals";
import type {
  CallDirection,
  CallHierarchy,
  CallHierarchyItem,
  CodeLocation,
  LanguageAnswer,
  LanguageServices,
  RenameAnswer,
  SymbolPosition,
  WorkspaceSymbol,
} from "../../../src/core/ports/languageServices";
import { MAX_REFERENCE_LINES, MAX_REFERENCE_LINES_PER_FILE } from "../../../src/core/tools/codeNavigation";
import { MAX_SYMBOLS } from "../../../src/core/tools/codeSymbols";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { toolHeading } from "../../../src/shared/toolView";

/** A language server written by hand: it answers what the test gives it and keeps what it was asked. */
class FakeLanguageServices implements LanguageServices {
  asked: { what: string; at?: SymbolPosition; query?: string; direction?: CallDirection }[] = [];
  language = "typescript";
  definitionAnswer: CodeLocation[] = [];
  referenceAnswer: CodeLocation[] = [];
  symbolAnswer: WorkspaceSymbol[] = [];
  hierarchy: CallHierarchy = { items: [], calls: [] };
  failure?: Error;
  /** Never answers (a stuck server): only the call's cancellation ends it. */
  stuck = false;

  private answer<T>(result: T): Promise<T> {
    if (this.stuck) return new Promise<T>(() => {});
    return this.failure ? Promise.reject(this.failure) : Promise.resolve(result);
  }
  definitions(at: SymbolPosition): Promise<LanguageAnswer<CodeLocation[]>> {
    this.asked.push({ what: "definitions", at });
    return this.answer({ language: this.language, result: this.definitionAnswer });
  }
  references(at: SymbolPosition): Promise<LanguageAnswer<CodeLocation[]>> {
    this.asked.push({ what: "references", at });
    return this.answer({ language: this.language, result: this.referenceAnswer });
  }
  workspaceSymbols(query: string): Promise<WorkspaceSymbol[]> {
    this.asked.push({ what: "symbols", query });
    return this.answer(this.symbolAnswer);
  }
  calls(at: SymbolPosition, direction: CallDirection): Promise<LanguageAnswer<CallHierarchy>> {
    this.asked.push({ what: "calls", at, direction });
    return this.answer({ language: this.language, result: this.hierarchy });
  }
  rename(at: SymbolPosition, newName: string): Promise<LanguageAnswer<RenameAnswer>> {
    this.asked.push({ what: `rename to ${newName}`, at });
    return this.answer({ language: this.language, result: this.renameAnswer });
  }
  renameAnswer: RenameAnswer = { ok: true, files: [] };
}

let cwd: string;
let services: FakeLanguageServices;

const GREET = "/** Says hello. */\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n";
const APP = 'import { greet } from "./greet";\nimport * as g from "./greet";\n\nexport function main(): void {\n  const greeting = greet("Kiln");\n  console.log(g.greet(greeting));\n}\n';

function write(rel: string, content: string): void {
  mkdirSync(dirname(join(cwd, rel)), { recursive: true });
  writeFileSync(join(cwd, rel), content);
}

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "kiln-lang-")));
  services = new FakeLanguageServices();
  write("src/greet.ts", GREET);
  write("src/app.ts", APP);
});

/** A location in the workspace from 1-based lines, as a reader counts them; `full`: the declaration's lines. */
function at(rel: string, line: number, character: number, length: number, full?: [number, number]): CodeLocation {
  const path = rel.startsWith("/") ? rel : join(cwd, rel);
  const range = { start: { line: line - 1, character }, end: { line: line - 1, character: character + length } };
  return { path, range, ...(full && { fullRange: { start: { line: full[0] - 1, character: 0 }, end: { line: full[1] - 1, character: 1 } } }) };
}

function toolbox(withServices = true, approvals: Approvals = { request: async () => ({ approved: true }) }): Toolbox {
  return createToolbox({
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals,
    autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
    cwd,
    fs: new NodeFileSystem(),
    os: "Linux",
    ...(withServices && { languageServices: services }),
  });
}

function run(name: string, params: Record<string, string>, options: { signal?: AbortSignal; box?: Toolbox } = {}): Promise<ToolCallResult> {
  const box = options.box ?? toolbox();
  return runToolCall({ type: "tool_use", name, params, partial: false }, box.pipeline(options.signal ?? new AbortController().signal, { mode: box.startMode, modes: box.modes }));
}

describe("go_to_definition", () => {
  it("finds the symbol's column on the line and shows each definition as path:line with its first lines of code", async () => {
    services.definitionAnswer = [at("src/greet.ts", 2, 16, 5, [2, 4])];
    const result = await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" });
    expect(result.status).toBe("done");
    // `greeting` comes first on the line, but only the whole word counts.
    expect(services.asked).toEqual([{ what: "definitions", at: { path: join(cwd, "src/app.ts"), position: { line: 4, character: 19 } } }]);
    expect(result.forModel).toBe(
      ["`greet` (src/app.ts:5) is defined in 1 place:", "", "## src/greet.ts:2", "2 | export function greet(name: string): string {", "3 |   return `Hello, ${name}!`;", "4 | }"].join("\n"),
    );
  });

  it("looks up the last part of a dotted name, and the line's first name when no symbol is given", async () => {
    services.definitionAnswer = [at("src/greet.ts", 2, 16, 5, [2, 4])];
    await run("go_to_definition", { path: "src/app.ts", line: "6", symbol: "g.greet" });
    await run("go_to_definition", { path: "src/app.ts", line: "6", symbol: "`greet()`" });
    const none = await run("go_to_definition", { path: "src/app.ts", line: "5" });
    expect(services.asked.map((a) => a.at!.position)).toEqual([
      { line: 5, character: 16 },
      { line: 5, character: 16 },
      // `const` is a keyword: `greeting` is the first name.
      { line: 4, character: 8 },
    ]);
    expect(none.forModel).toMatch(/^`greeting` \(src\/app\.ts:5\) is defined in 1 place:/);
  });

  it("a long declaration is cut after its first lines, saying where it ends; the definition asked about says so", async () => {
    write("src/long.ts", `export function long(): number {\n${Array.from({ length: 20 }, (_, i) => `  const v${i} = ${i};`).join("\n")}\n  return 0;\n}\n`);
    services.definitionAnswer = [at("src/long.ts", 1, 16, 4, [1, 23])];
    const result = await run("go_to_definition", { path: "src/long.ts", line: "1", symbol: "long" });
    expect(result.forModel).toContain("`long` (src/long.ts:1) is defined in 1 place: This is its definition.");
    expect(result.forModel).toContain("8 |   const v6 = 6;\n[… the definition goes on to line 23; read_file shows the rest.]");
    expect(result.forModel).not.toContain("v7");
  });

  it("refuses a line past the end, a symbol not on the line (naming where it is), a missing file and a folder", async () => {
    const past = await run("go_to_definition", { path: "src/app.ts", line: "40", symbol: "greet" });
    expect(past).toMatchObject({ status: "error", reason: "invalid_args", forModel: "Error: src/app.ts has 7 lines; line 40 does not exist." });
    const absent = await run("go_to_definition", { path: "src/app.ts", line: "4", symbol: "greet" });
    expect(absent).toMatchObject({ status: "error", reason: "invalid_args" });
    expect(absent.forModel).toBe(
      "Error: `greet` is not on line src/app.ts:4, which reads `export function main(): void {`. It is on lines 5, 2, 6 nearby. Give the line where the name is written and the name exactly as it is written there.",
    );
    const missing = await run("go_to_definition", { path: "src/nope.ts", line: "1", symbol: "x" });
    expect(missing).toMatchObject({ status: "error", reason: "not_found" });
    expect(missing.forModel).toContain("src/nope.ts does not exist");
    const folder = await run("go_to_definition", { path: "src", line: "1", symbol: "x" });
    expect(folder).toMatchObject({ status: "error", reason: "wrong_type" });
    expect(services.asked).toEqual([]);
  });

  it("no answer says the server found nothing or there is none, and what to use instead; a plain-text file says no server covers it", async () => {
    const empty = await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" });
    expect(empty.status).toBe("done");
    expect(empty.forModel).toMatch(/^No definition of `greet` found from src\/app\.ts:5: the typescript language server found nothing there, or none is installed for typescript/);
    expect(empty.forModel).toContain("Use search_files");
    services.language = "plaintext";
    write("notes.txt", "greet the team\n");
    const plain = await run("go_to_definition", { path: "notes.txt", line: "1", symbol: "greet" });
    expect(plain.forModel).toContain("the editor reads this file as plain text, so no language server covers it");
  });

  it("a definition in a .kilocodeignore'd file is left out and counted; one outside the workspace is named without its code", async () => {
    write(".kilocodeignore", "secret/\n");
    write("secret/impl.ts", "export function greet() {}\n");
    const outside = join(realpathSync(mkdtempSync(join(tmpdir(), "kiln-lib-"))), "lib.d.ts");
    writeFileSync(outside, "declare function greet(): void;\n");
    services.definitionAnswer = [at("secret/impl.ts", 1, 16, 5), at(outside, 1, 17, 5), at("src/greet.ts", 2, 16, 5, [2, 4])];
    const result = await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" });
    expect(result.forModel).toContain("is defined in 2 places:");
    expect(result.forModel).toContain(`## ${outside}:1 (outside the workspace; read_file shows it)\n\n## src/greet.ts:2`);
    expect(result.forModel).not.toContain("declare function");
    expect(result.forModel).not.toContain("secret/impl.ts");
    expect(result.forModel).toMatch(/\(1 more in files hidden from Kiln by \.kilocodeignore, left out\.\)$/);
    services.definitionAnswer = [at("secret/impl.ts", 1, 16, 5)];
    expect((await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" })).forModel).toBe("`greet` (src/app.ts:5) is defined only in files hidden from Kiln by .kilocodeignore.");
  });

  it("a file hidden by .kilocodeignore is refused before any server is asked", async () => {
    write(".kilocodeignore", "src/app.ts\n");
    const result = await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" });
    expect(result).toMatchObject({ status: "error", reason: "ignored" });
    expect(services.asked).toEqual([]);
  });

  it("a server that fails is reported with what to use instead; a stuck one ends with the call", async () => {
    services.failure = new Error("tsserver crashed");
    const failed = await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" });
    expect(failed).toMatchObject({ status: "error", reason: "failed" });
    expect(failed.forModel).toContain("the language server could not answer go_to_definition: tsserver crashed. Use search_files");
    services.failure = undefined;
    services.stuck = true;
    const stop = new AbortController();
    const pending = run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" }, { signal: stop.signal });
    setTimeout(() => stop.abort(), 20);
    expect((await pending).forModel).toBe("Cancelled.");
  });
});

describe("find_references", () => {
  it("groups the references by file, the asked file first, each line once with its text", async () => {
    write("src/other.ts", 'import { greet } from "./greet";\nexport const a = greet("a") + greet("b");\n');
    services.referenceAnswer = [
      at("src/other.ts", 2, 17, 5),
      at("src/other.ts", 2, 30, 5),
      at("src/greet.ts", 2, 16, 5),
      at("src/app.ts", 5, 19, 5),
      at("src/app.ts", 1, 9, 5),
      at("src/other.ts", 1, 9, 5),
    ];
    const result = await run("find_references", { path: "src/app.ts", line: "5", symbol: "greet" });
    expect(services.asked).toEqual([{ what: "references", at: { path: join(cwd, "src/app.ts"), position: { line: 4, character: 19 } } }]);
    expect(result.forModel).toBe(
      [
        "`greet` (src/app.ts:5): 6 references in 3 files.",
        "",
        "# src/app.ts",
        '1 | import { greet } from "./greet";',
        '5 | const greeting = greet("Kiln");',
        "",
        "# src/greet.ts",
        "2 | export function greet(name: string): string {",
        "",
        "# src/other.ts",
        '1 | import { greet } from "./greet";',
        '2 | export const a = greet("a") + greet("b");',
      ].join("\n"),
    );
  });

  it(`shows at most ${MAX_REFERENCE_LINES} lines, ${MAX_REFERENCE_LINES_PER_FILE} per file, and names the files left over with their counts`, async () => {
    const refs: CodeLocation[] = [];
    for (let f = 0; f < 8; f++) {
      const rel = `src/use${f}.ts`;
      write(rel, Array.from({ length: 30 }, (_, i) => `greet(${i});`).join("\n") + "\n");
      for (let line = 1; line <= 30; line++) refs.push(at(rel, line, 0, 5));
    }
    services.referenceAnswer = refs;
    const result = await run("find_references", { path: "src/app.ts", line: "5", symbol: "greet" });
    const text = result.forModel;
    expect(text).toMatch(/^`greet` \(src\/app\.ts:5\): 240 references in 8 files\./);
    expect(text.split("\n").filter((l) => / \| greet\(/.test(l))).toHaveLength(MAX_REFERENCE_LINES);
    expect(text).toContain("# src/use0.ts\n 1 | greet(0);");
    expect(text).toContain("20 | greet(19);\n[… 10 more lines in this file not shown.]");
    expect(text).not.toContain("# src/use5.ts");
    expect(text).toMatch(/Not shown \(the first 100 lines are\): 3 more files, src\/use5\.ts \(30\), src\/use6\.ts \(30\), src\/use7\.ts \(30\)\./);
  });

  it("references in .kilocodeignore'd files are left out and counted", async () => {
    write(".kilocodeignore", "secret/\n");
    write("secret/uses.ts", "greet();\n");
    services.referenceAnswer = [at("src/app.ts", 5, 19, 5), at("secret/uses.ts", 1, 0, 5)];
    const result = await run("find_references", { path: "src/app.ts", line: "5", symbol: "greet" });
    expect(result.forModel).toContain("1 reference in 1 file.");
    expect(result.forModel).not.toContain("secret");
    expect(result.forModel).toMatch(/\(1 more in files hidden from Kiln by \.kilocodeignore, left out\.\)$/);
  });

  it("needs a symbol", async () => {
    const result = await run("find_references", { path: "src/app.ts", line: "5" });
    expect(result.status).toBe("error");
    expect(result.forModel).toContain("<symbol>");
  });
});

describe("workspace_symbols", () => {
  const symbol = (name: string, kind: string, rel: string, line: number, container?: string): WorkspaceSymbol => ({
    name,
    kind,
    ...(container && { container }),
    location: at(rel, line, 0, name.length),
  });

  it("lists kind, name, container and path:line, exact names first, then those that start with the query", async () => {
    services.symbolAnswer = [symbol("greeting", "variable", "src/app.ts", 5, "main"), symbol("regreet", "function", "src/app.ts", 1), symbol("greet", "function", "src/greet.ts", 2)];
    const result = await run("workspace_symbols", { query: " greet " });
    expect(services.asked).toEqual([{ what: "symbols", query: "greet" }]);
    expect(result.forModel).toBe(['3 symbols match "greet":', "- function greet — src/greet.ts:2", "- variable greeting in main — src/app.ts:5", "- function regreet — src/app.ts:1"].join("\n"));
  });

  it(`shows at most ${MAX_SYMBOLS}; hidden and outside ones are left out and counted`, async () => {
    write(".kilocodeignore", "secret/\n");
    services.symbolAnswer = [
      ...Array.from({ length: 60 }, (_, i) => symbol(`greet${i}`, "function", "src/app.ts", 1)),
      symbol("greetHidden", "function", "secret/a.ts", 1),
      symbol("greetLib", "function", "/usr/lib/x.d.ts", 1),
    ];
    const result = await run("workspace_symbols", { query: "greet" });
    expect(result.forModel.split("\n")[0]).toBe(
      '60 symbols match "greet" (the first 50 shown; a longer name narrows it) (1 in files hidden from Kiln by .kilocodeignore and 1 outside the workspace left out):',
    );
    expect(result.forModel.split("\n")).toHaveLength(1 + MAX_SYMBOLS);
    expect(result.forModel).not.toMatch(/greetHidden|greetLib/);
  });

  it("an empty query is refused; no match says how servers search and what else to try", async () => {
    expect(await run("workspace_symbols", { query: "  " })).toMatchObject({ status: "error", reason: "invalid_args" });
    const none = await run("workspace_symbols", { query: "nothing" });
    expect(none.forModel).toMatch(/^No symbols in the workspace match "nothing"\. Language servers search the projects they have loaded/);
    expect(none.forModel).toContain("Try codebase_search or search_files.");
  });
});

describe("call_hierarchy", () => {
  const item = (name: string, kind: string, rel: string, line: number, character: number): CallHierarchyItem => ({ name, kind, location: at(rel, line, character, name.length) });

  it("incoming: each caller as path:line with the lines of its calls", async () => {
    write("src/other.ts", "export function twice() {\n  greet(1);\n  return greet(2);\n}\n");
    services.hierarchy = {
      items: [item("greet", "function", "src/greet.ts", 2, 16)],
      calls: [
        { item: item("main", "function", "src/app.ts", 4, 16), callSites: [at("src/app.ts", 5, 19, 5).range] },
        { item: item("twice", "function", "src/other.ts", 1, 16), callSites: [at("src/other.ts", 3, 9, 5).range, at("src/other.ts", 2, 2, 5).range] },
      ],
    };
    const result = await run("call_hierarchy", { path: "src/greet.ts", line: "2", symbol: "greet", direction: "incoming" });
    expect(services.asked).toEqual([{ what: "calls", at: { path: join(cwd, "src/greet.ts"), position: { line: 1, character: 16 } }, direction: "incoming" }]);
    expect(result.forModel).toBe(
      [
        "Calls to `greet` (function, src/greet.ts:2): 3 calls from 2 callers.",
        "",
        "## main (function) — src/app.ts:4",
        'src/app.ts:5 | const greeting = greet("Kiln");',
        "",
        "## twice (function) — src/other.ts:1",
        "src/other.ts:2 | greet(1);",
        "src/other.ts:3 | return greet(2);",
      ].join("\n"),
    );
  });

  it("outgoing: each function called, with the lines of the calls in the function asked about", async () => {
    services.hierarchy = {
      items: [item("main", "function", "src/app.ts", 4, 16)],
      calls: [{ item: item("greet", "function", "src/greet.ts", 2, 16), callSites: [at("src/app.ts", 5, 19, 5).range, at("src/app.ts", 6, 16, 5).range] }],
    };
    const result = await run("call_hierarchy", { path: "src/app.ts", line: "4", symbol: "main", direction: "outgoing" });
    expect(result.forModel).toBe(
      [
        "Calls from `main` (function, src/app.ts:4): 1 function called.",
        "",
        "## greet (function) — src/greet.ts:2",
        'src/app.ts:5 | const greeting = greet("Kiln");',
        "src/app.ts:6 | console.log(g.greet(greeting));",
      ].join("\n"),
    );
  });

  it("says when nothing is callable there, and when nothing calls it; the direction must be incoming or outgoing", async () => {
    const none = await run("call_hierarchy", { path: "src/app.ts", line: "5", symbol: "greeting", direction: "incoming" });
    expect(none.forModel).toMatch(/^No function, method or constructor `greeting` for the call hierarchy at src\/app\.ts:5: the typescript language server found nothing there/);
    services.hierarchy = { items: [item("main", "function", "src/app.ts", 4, 16)], calls: [] };
    const uncalled = await run("call_hierarchy", { path: "src/app.ts", line: "4", symbol: "main", direction: "incoming" });
    expect(uncalled.forModel).toMatch(/^Nothing calls `main` \(function, src\/app\.ts:4\), as far as the typescript language server sees/);
    const wrong = await run("call_hierarchy", { path: "src/app.ts", line: "4", symbol: "main", direction: "upward" });
    expect(wrong).toMatchObject({ status: "error", reason: "invalid_args" });
    expect(wrong.forModel).toContain("must be one of incoming, outgoing");
  });
});

describe("where the code-intelligence tools are offered", () => {
  const LANGUAGE_TOOLS = ["go_to_definition", "find_references", "workspace_symbols", "call_hierarchy"];

  it("with language services (VS Code) every built-in mode offers them and the prompt says to prefer them; without (the CLI) none does and the prompt says they are not available", () => {
    const withServices = toolbox(true);
    const without = toolbox(false);
    for (const slug of ["code", "architect", "ask", "debug", "orchestrator"]) {
      const mode = findMode(slug)!;
      if (!mode.groups.some((g) => (Array.isArray(g) ? g[0] : g) === "read")) continue;
      const offered = withServices.nativeTools(mode).map((t) => t.name);
      expect(offered, slug).toEqual(expect.arrayContaining(LANGUAGE_TOOLS));
      expect(without.nativeTools(mode).map((t) => t.name)).not.toEqual(expect.arrayContaining(["go_to_definition"]));
    }
    const code = { mode: findMode("code")!, modes: withServices.modes };
    expect(withServices.systemPrompt("xml", code)).toContain("## go_to_definition");
    expect(withServices.systemPrompt("native", code)).toContain("prefer go_to_definition, find_references and call_hierarchy");
    const cli = without.systemPrompt("xml", code);
    expect(cli).not.toContain("## go_to_definition");
    expect(cli).toContain("go_to_definition, find_references, workspace_symbols, call_hierarchy and rename_symbol (an editor's language servers)\n  are not available here");
    expect(withServices.systemPrompt("native", code)).toContain("To rename a symbol everywhere it is used, use rename_symbol.");
    // A mode that may not edit is not told about renaming.
    expect(without.systemPrompt("native", { mode: findMode("ask")!, modes: without.modes })).toContain("call_hierarchy (an editor's language servers)\n  are not available here");
  });

  it("a model that calls one anyway where there are no language servers is told to search instead", async () => {
    const result = await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" }, { box: toolbox(false) });
    expect(result).toMatchObject({ status: "error", reason: "unavailable" });
    expect(result.forModel).toContain("go_to_definition needs an editor's language servers, and there are none here. Use search_files");
  });

  it("they run without asking where reads are auto-approved", async () => {
    let asked = 0;
    const box = toolbox(true, {
      request: async () => {
        asked++;
        return { approved: true };
      },
    });
    services.definitionAnswer = [at("src/greet.ts", 2, 16, 5, [2, 4])];
    expect((await run("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" }, { box })).status).toBe("done");
    expect(asked).toBe(0);
  });
});

describe("their cards", () => {
  it("name the symbol and what is done with it", () => {
    const heading = (name: string, params: Record<string, string>) => toolHeading(presentTool(name, params, "done"));
    expect(heading("go_to_definition", { path: "src/app.ts", line: "5", symbol: "greet" })).toBe("Kiln found the definition of greet");
    expect(heading("go_to_definition", { path: "src/app.ts", line: "5" })).toBe("Kiln found the definition of src/app.ts:5");
    expect(heading("find_references", { path: "src/app.ts", line: "5", symbol: "greet" })).toBe("Kiln found the references to greet");
    expect(heading("workspace_symbols", { query: "greet" })).toBe("Kiln searched the workspace symbols for greet");
    expect(heading("call_hierarchy", { path: "src/greet.ts", line: "2", symbol: "greet", direction: "incoming" })).toBe("Kiln found the callers of greet");
    expect(heading("call_hierarchy", { path: "src/app.ts", line: "4", symbol: "main", direction: "outgoing" })).toBe("Kiln found what main calls");
    expect(presentTool("find_references", { path: "src/app.ts", line: "5", symbol: "greet" }, "waiting").link).toEqual({ path: "src/app.ts", line: 5 });
  });
});

describe("rename_symbol", () => {
  /** The TypeScript server's rename of `greet`: its declaration, the import and the two calls. */
  const renameGreet = (newText: string): RenameAnswer => ({
    ok: true,
    files: [
      { path: join(cwd, "src/greet.ts"), edits: [{ range: at("src/greet.ts", 2, 16, 5).range, newText }] },
      {
        path: join(cwd, "src/app.ts"),
        edits: [at("src/app.ts", 1, 9, 5), at("src/app.ts", 5, 19, 5), at("src/app.ts", 6, 16, 5)].map((l) => ({ range: l.range, newText })),
      },
    ],
  });
  const file = (rel: string) => readFileSync(join(cwd, rel), "utf8");

  function asking(answers: ApprovalDecision[]) {
    const requests: ApprovalRequest[] = [];
    const box = toolbox(true, {
      request: async (request) => {
        requests.push(request);
        return answers.shift() ?? { approved: true };
      },
    });
    return { box, requests };
  }

  it("changes every file the server names, each file asked about with its own diff, the file asked about first", async () => {
    services.renameAnswer = renameGreet("salute");
    const { box, requests } = asking([{ approved: true }, { approved: true }]);
    const result = await run("rename_symbol", { path: "src/app.ts", line: "5", symbol: "greet", new_name: "salute" }, { box });
    // No definition known: the rename is asked where the symbol was named.
    expect(services.asked.at(-1)).toEqual({ what: "rename to salute", at: { path: join(cwd, "src/app.ts"), position: { line: 4, character: 19 } } });
    expect(result.forModel).toBe("Renamed `greet` to `salute`: 4 changes in 2 files: src/app.ts (3 changes), src/greet.ts (1 change).");
    expect(requests.map((r) => [r.summary, r.part])).toEqual([
      ["Rename greet to salute (src/app.ts:5)", "src/app.ts"],
      ["Rename greet to salute (src/app.ts:5)", "src/greet.ts"],
    ]);
    expect(requests[0]!.diff).toContain('-  const greeting = greet("Kiln");\n-  console.log(g.greet(greeting));\n+  const greeting = salute("Kiln");\n+  console.log(g.salute(greeting));');
    expect(requests[1]!.diff).toContain("-export function greet(name: string): string {\n+export function salute(name: string): string {");
    expect(file("src/app.ts")).toBe(APP.replaceAll("greet(", "salute(").replace("{ greet }", "{ salute }"));
    expect(file("src/greet.ts")).toBe(GREET.replace("function greet", "function salute"));
  });

  it("renames where the symbol is declared, asked at a use in another file (a server would only alias it there)", async () => {
    services.definitionAnswer = [at("src/greet.ts", 2, 16, 5, [2, 4])];
    services.renameAnswer = renameGreet("salute");
    const { box } = asking([]);
    const result = await run("rename_symbol", { path: "src/app.ts", line: "5", symbol: "greet", new_name: "salute" }, { box });
    expect(services.asked.map((a) => [a.what, a.at])).toEqual([
      ["definitions", { path: join(cwd, "src/app.ts"), position: { line: 4, character: 19 } }],
      ["rename to salute", { path: join(cwd, "src/greet.ts"), position: { line: 1, character: 16 } }],
    ]);
    expect(result.forModel).toMatch(/^Renamed `greet` to `salute`: 4 changes in 2 files/);
  });

  it("a file rejected stops the rename there: the model hears which files changed and which still use the old name", async () => {
    services.renameAnswer = renameGreet("salute");
    const { box } = asking([{ approved: true }, { approved: false, feedback: "keep greet.ts as it is" }]);
    const result = await run("rename_symbol", { path: "src/app.ts", line: "5", symbol: "greet", new_name: "salute" }, { box });
    expect(result.forModel).toBe(
      "Renamed `greet` to `salute` in part: the user rejected the change in src/greet.ts and said: keep greet.ts as it is. Changed: src/app.ts (3 changes). Not changed (they still use the old name): src/greet.ts. The code may not build until the names agree.",
    );
    expect(file("src/greet.ts")).toBe(GREET);
    expect(file("src/app.ts")).toContain("salute(");
  });

  it("the first file rejected is a denial: nothing changed", async () => {
    services.renameAnswer = renameGreet("salute");
    const { box, requests } = asking([{ approved: false }]);
    const result = await run("rename_symbol", { path: "src/app.ts", line: "5", symbol: "greet", new_name: "salute" }, { box });
    expect(result.status).toBe("denied");
    expect(requests).toHaveLength(1);
    expect([file("src/app.ts"), file("src/greet.ts")]).toEqual([APP, GREET]);
  });

  it("a rename that reaches a .kilocodeignore'd file changes nothing and asks no one", async () => {
    write(".kilocodeignore", "src/greet.ts\n");
    services.renameAnswer = renameGreet("salute");
    const { box, requests } = asking([]);
    const result = await run("rename_symbol", { path: "src/app.ts", line: "5", symbol: "greet", new_name: "salute" }, { box });
    expect(result).toMatchObject({ status: "error", reason: "ignored" });
    expect(result.forModel).toContain("the rename would change src/greet.ts, which is hidden from Kiln by .kilocodeignore; nothing was changed.");
    expect(requests).toEqual([]);
    expect(file("src/app.ts")).toBe(APP);
  });

  it("keeps a CRLF file's line endings; a server's refusal, a name with spaces and the same name are errors", async () => {
    write("src/crlf.ts", "const a = 1;\r\nexport const b = a + a;\r\n");
    services.renameAnswer = {
      ok: true,
      files: [{ path: join(cwd, "src/crlf.ts"), edits: [at("src/crlf.ts", 1, 6, 1), at("src/crlf.ts", 2, 17, 1), at("src/crlf.ts", 2, 21, 1)].map((l) => ({ range: l.range, newText: "alpha" })) }],
    };
    const { box } = asking([]);
    expect((await run("rename_symbol", { path: "src/crlf.ts", line: "1", symbol: "a", new_name: "alpha" }, { box })).status).toBe("done");
    expect(file("src/crlf.ts")).toBe("const alpha = 1;\r\nexport const b = alpha + alpha;\r\n");
    services.renameAnswer = { ok: false, reason: "You cannot rename elements that are defined in a library." };
    const refused = await run("rename_symbol", { path: "src/app.ts", line: "6", symbol: "log", new_name: "write" }, { box });
    expect(refused).toMatchObject({ status: "error", reason: "unsupported" });
    expect(refused.forModel).toBe("Error: the typescript language server will not rename `log` at src/app.ts:6: You cannot rename elements that are defined in a library.");
    expect(await run("rename_symbol", { path: "src/app.ts", line: "5", symbol: "greet", new_name: "say hello" }, { box })).toMatchObject({ reason: "invalid_args" });
    expect(await run("rename_symbol", { path: "src/app.ts", line: "5", symbol: "greet", new_name: "greet" }, { box })).toMatchObject({ reason: "invalid_args" });
  });

  it("is an edit: offered in the modes that may edit, not in ask mode, and not without language services", () => {
    expect(
      toolbox(true)
        .nativeTools(findMode("code")!)
        .map((t) => t.name),
    ).toContain("rename_symbol");
    expect(
      toolbox(true)
        .nativeTools(findMode("ask")!)
        .map((t) => t.name),
    ).not.toContain("rename_symbol");
    expect(
      toolbox(false)
        .nativeTools(findMode("code")!)
        .map((t) => t.name),
    ).not.toContain("rename_symbol");
  });
});
