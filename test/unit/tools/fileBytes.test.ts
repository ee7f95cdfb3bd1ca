import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { TaskChanges } from "../../../src/core/edit/taskChanges";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalRequest } from "../../../src/core/ports/approvals";
import type { EncodingHint, FileSystem } from "../../../src/core/ports/fileSystem";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { LATIN1, SHIFT_JIS, SHIFT_JIS_TESUTO, UTF16LE_BOM, WINDOWS_1252, pngWithText } from "../../fixtures/files/encodings";

/**
 * The edit tools on real files in real encodings: what they did not change stays byte for byte,
 * the file's end keeps its line break (or its lack of one), and binary files are refused.
 */

let cwd: string;
let asked: ApprovalRequest[];

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-file-bytes-"));
  asked = [];
});

function deps(fs: FileSystem = new NodeFileSystem(), changes?: TaskChanges): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async (r) => (asked.push(r), { approved: true }) },
    autoApprove: { groups: new Set(), outsideWorkspace: false, categories: new Set() },
    context: { cwd, fs, signal: new AbortController().signal, ...(changes ? { changes } : {}) },
  };
}

const run = (name: string, params: Record<string, string>, d = deps()) => runToolCall({ type: "tool_use", name, params, partial: false } satisfies ToolUseBlock, d);
const bytesOf = (name: string) => readFileSync(join(cwd, name));
const put = (name: string, bytes: Buffer | string) => writeFileSync(join(cwd, name), bytes);
const latin1 = (text: string) => Buffer.from(text, "latin1");
const diff = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

describe("the fixtures are what they say", () => {
  it("hold the bytes of their encodings (Node's own decoders, where it has them)", () => {
    // One byte a character: é is 0xE9, and in Windows-1252 € is 0x80.
    expect(LATIN1.bytes.length).toBe(LATIN1.text.length);
    expect(LATIN1.bytes[LATIN1.text.indexOf("é")]).toBe(0xe9);
    expect(WINDOWS_1252.bytes.length).toBe(WINDOWS_1252.text.length);
    expect(WINDOWS_1252.bytes[WINDOWS_1252.text.indexOf("€")]).toBe(0x80);
    expect(new TextDecoder("shift_jis").decode(SHIFT_JIS.bytes)).toBe(SHIFT_JIS.text);
    expect(new TextDecoder("shift_jis").decode(SHIFT_JIS_TESUTO)).toBe("テスト");
    expect(new TextDecoder("utf-16le").decode(UTF16LE_BOM.bytes)).toBe(UTF16LE_BOM.text);
  });
});

describe("write_to_file keeps the file's final line break", () => {
  it("a rewrite of a file that ended with one ends with one, though the XML value lost it", async () => {
    put("a.txt", "old\ntext\n");
    expect((await run("write_to_file", { path: "a.txt", content: "new\ntext" })).forModel).toBe("Overwrote a.txt (2 lines).");
    expect(bytesOf("a.txt").toString()).toBe("new\ntext\n");
  });

  it("a rewrite of a file that ended without one ends without one", async () => {
    put("b.txt", "old\ntext");
    await run("write_to_file", { path: "b.txt", content: "new\ntext\n" });
    expect(bytesOf("b.txt").toString()).toBe("new\ntext");
  });

  it("a new file ends with one, and a CRLF file with CRLF", async () => {
    await run("write_to_file", { path: "new.txt", content: "fresh\ncontent" });
    expect(bytesOf("new.txt").toString()).toBe("fresh\ncontent\n");
    put("win.txt", "one\r\ntwo\r\n");
    await run("write_to_file", { path: "win.txt", content: "uno\ndos" });
    expect(bytesOf("win.txt").toString()).toBe("uno\r\ndos\r\n");
  });

  it("rewrites a Latin-1 file in Latin-1, its final line break kept", async () => {
    put("fr.txt", LATIN1.bytes);
    await run("write_to_file", { path: "fr.txt", content: "// Château réécrit" });
    expect(bytesOf("fr.txt")).toEqual(latin1("// Château réécrit\n"));
  });
});

describe("edits keep the file's encoding: the bytes they did not touch stay as they were", () => {
  it("apply_diff on a Latin-1 file", async () => {
    put("fr.ts", LATIN1.bytes);
    const result = await run("apply_diff", { path: "fr.ts", diff: diff("const niveau = 3;", "const niveau = 4; // modifié") });
    expect(result.forModel).toBe("Applied 1 block to fr.ts.");
    expect(bytesOf("fr.ts")).toEqual(latin1(LATIN1.text.replace("const niveau = 3;", "const niveau = 4; // modifié")));
    // The review saw the text as it is, not U+FFFD in place of every accented letter.
    expect(asked[0]!.diff).toContain("-const niveau = 3;");
    expect(asked[0]!.diff).toContain(" // Paramètres par défaut de l'élève");
    expect(asked[0]!.diff).not.toContain("\uFFFD");
  });

  it("search_and_replace on a Windows-1252 file, € (0x80) written back as 0x80", async () => {
    put("prix.ts", WINDOWS_1252.bytes);
    const result = await run("search_and_replace", { path: "prix.ts", search: '"5 €"', replace: '"7 €"' });
    expect(result.forModel).toBe("Replaced 1 occurrence in prix.ts.");
    const expected = Buffer.from(WINDOWS_1252.bytes);
    expected[expected.indexOf('"5 ') + 1] = "7".charCodeAt(0);
    expect(bytesOf("prix.ts")).toEqual(expected);
  });

  it("insert_content on a UTF-16LE file with its BOM and CRLF", async () => {
    put("utf16.txt", UTF16LE_BOM.bytes);
    const result = await run("insert_content", { path: "utf16.txt", line: "2", content: "eingefügt" });
    expect(result.forModel).toBe("Inserted 1 line into utf16.txt before line 2 (lines 2-2 now).");
    expect(bytesOf("utf16.txt")).toEqual(Buffer.from("\uFEFFfirst line\r\neingefügt\r\nzweite Zeile: grün\r\nthird line\r\n", "utf16le"));
  });

  it("apply_diff on a Shift_JIS file, new Japanese text in Shift_JIS", async () => {
    put("ja.ts", SHIFT_JIS.bytes);
    const result = await run("apply_diff", { path: "ja.ts", diff: diff("const x = 1;", "const x = 2; // テスト") });
    expect(result.forModel).toBe("Applied 1 block to ja.ts.");
    const comment = SHIFT_JIS.bytes.subarray(0, SHIFT_JIS.bytes.indexOf("const"));
    expect(bytesOf("ja.ts")).toEqual(Buffer.concat([comment, Buffer.from("const x = 2; // "), SHIFT_JIS_TESUTO, Buffer.from("\n")]));
  });

  it("read_file shows the text in the file's encoding and names it", async () => {
    put("fr.ts", LATIN1.bytes);
    put("utf16.txt", UTF16LE_BOM.bytes);
    const latin = await run("read_file", { path: "fr.ts" });
    expect(latin.forModel).toContain('<file path="fr.ts" encoding="ISO-8859-1" lines="1-4" total="4">');
    expect(latin.forModel).toContain("1 | // Paramètres par défaut de l'élève");
    const utf16 = await run("read_file", { path: "utf16.txt" });
    expect(utf16.forModel).toContain('encoding="UTF-16LE"');
    expect(utf16.forModel).toContain("2 | zweite Zeile: grün");
  });

  it("a revert of the task's change puts the original bytes back", async () => {
    put("fr.ts", LATIN1.bytes);
    const changes = new TaskChanges();
    const fs = new NodeFileSystem();
    await run("search_and_replace", { path: "fr.ts", search: "Besançon", replace: "Besançon-les-Bains" }, deps(fs, changes));
    expect(bytesOf("fr.ts")).toEqual(latin1(LATIN1.text.replace("Besançon", "Besançon-les-Bains")));
    await changes.revert(join(cwd, "fr.ts"), fs);
    expect(bytesOf("fr.ts")).toEqual(LATIN1.bytes);
  });
});

describe("what cannot be kept is refused, and the file is left as it was", () => {
  it("a character the file's encoding cannot hold", async () => {
    put("fr.ts", LATIN1.bytes);
    const result = await run("search_and_replace", { path: "fr.ts", search: "Besançon", replace: "Besançon → Dijon" });
    expect(result.forModel).toBe(
      'Error: fr.ts is stored as ISO-8859-1, which cannot hold "→"; nothing was changed. Write the change without that character (an ASCII spelling, or an escape the file\'s language understands).',
    );
    expect(bytesOf("fr.ts")).toEqual(LATIN1.bytes);
    expect(asked).toEqual([]);
  });

  it("a file whose encoding cannot be told: one accented byte in ASCII", async () => {
    const bytes = latin1("const s = 'é';\n");
    put("short.ts", bytes);
    const result = await run("apply_diff", { path: "short.ts", diff: diff("const s = 'é';", "const s = 'è';") });
    expect(result.forModel).toMatch(
      /^Error: short\.ts cannot be edited safely: it is not UTF-8, and its encoding cannot be told for certain: it holds too few non-ASCII characters to tell; .*Nothing was changed, so that no byte of it is rewritten wrongly\./,
    );
    expect(bytesOf("short.ts")).toEqual(bytes);
    expect(asked).toEqual([]);
    // read_file says why, and shows what it can.
    const read = await run("read_file", { path: "short.ts" });
    expect(read.forModel).toContain("[Encoding unknown: it is not UTF-8");
    expect(read.forModel).toContain("1 | const s = '\uFFFD';");
  });

  it("the same file is edited in the encoding the host names for it", async () => {
    const bytes = latin1("const s = 'é';\n");
    put("short.ts", bytes);
    const node = new NodeFileSystem();
    const hinted: FileSystem = Object.assign(Object.create(node) as NodeFileSystem, { encodingHint: async (): Promise<EncodingHint> => ({ encoding: "windows1252", source: "setting" }) });
    const result = await run("apply_diff", { path: "short.ts", diff: diff("const s = 'é';", "const s = 'è';") }, deps(hinted));
    expect(result.forModel).toBe("Applied 1 block to short.ts.");
    expect(bytesOf("short.ts")).toEqual(latin1("const s = 'è';\n"));
  });

  it("a binary file: every edit tool refuses it, and asks nothing", async () => {
    const png = pngWithText("hello world\nsecond line\n");
    put("logo.png", png);
    const refused = "Error: logo.png is a binary file (PNG image), not text; the edit tools change text files only, so nothing was changed.";
    expect((await run("apply_diff", { path: "logo.png", diff: diff("hello world", "hello there") })).forModel).toBe(refused);
    expect((await run("search_and_replace", { path: "logo.png", search: "hello", replace: "bye" })).forModel).toBe(refused);
    expect((await run("insert_content", { path: "logo.png", line: "1", content: "more" })).forModel).toBe(refused);
    expect((await run("write_to_file", { path: "logo.png", content: "not an image" })).forModel).toBe(refused);
    expect(bytesOf("logo.png")).toEqual(png);
    expect(asked).toEqual([]);
  });

  it("a binary file without a known signature, by its NUL bytes", async () => {
    const blob = Buffer.concat([Buffer.from("header line\n"), Buffer.from([0, 1, 2, 0xff, 0]), Buffer.from("\ntrailer\n")]);
    put("data.bin", blob);
    const result = await run("apply_diff", { path: "data.bin", diff: diff("header line", "changed line") });
    expect(result.forModel).toBe("Error: data.bin is a binary file (raw binary data), not text; the edit tools change text files only, so nothing was changed.");
    expect(bytesOf("data.bin")).toEqual(blob);
  });
});
