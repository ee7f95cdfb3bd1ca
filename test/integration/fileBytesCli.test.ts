import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptedTurn } from "../fixtures/fakeModelServer";
import { LATIN1, SHIFT_JIS, SHIFT_JIS_TESUTO, UTF16LE_BOM, WINDOWS_1252, pngWithText } from "../fixtures/files/encodings";
import { cliWithModelServer, runCli } from "./cliProcess";

/**
 * kiln run's edit tools on files as real projects hold them: legacy encodings and binaries keep
 * every byte an edit did not change, and a rewrite keeps the file's final line break.
 */

const setup = cliWithModelServer();
let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-file-bytes-cli-"));
});

const file = (name: string) => join(workspace, name);
const bytesOf = (name: string) => readFileSync(file(name));
const sent = (request: RecordedRequest) => JSON.stringify(request.body.messages);
const diff = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

/** A tool call in the XML form, each value on lines of its own (the parser drops the line breaks at its edges). */
function call(name: string, args: Record<string, string | number>): ScriptedTurn {
  return {
    text: `<${name}>\n${Object.entries(args)
      .map(([k, v]) => `<${k}>\n${v}\n</${k}>`)
      .join("\n")}\n</${name}>`,
  };
}

function kiln(prompt: string) {
  return runCli(setup.cli, ["run", "--provider", "openai", "--base-url", setup.server.openaiBaseUrl, "--workspace", workspace, "--approve", "read,edit", prompt], { OPENAI_API_KEY: "sk-bytes" });
}

describe("kiln run keeps the bytes of the files it edits", () => {
  it("edits Latin-1, Windows-1252, UTF-16LE and Shift_JIS files in their encodings, and rewrites keep the final line break", async () => {
    writeFileSync(file("fr.ts"), LATIN1.bytes);
    writeFileSync(file("prix.ts"), WINDOWS_1252.bytes);
    writeFileSync(file("utf16.txt"), UTF16LE_BOM.bytes);
    writeFileSync(file("ja.ts"), SHIFT_JIS.bytes);
    writeFileSync(file("notes.md"), "# Notes\n\nold line\n");
    writeFileSync(file("bare.txt"), "no final newline");
    const before = setup.server.requests.length;
    setup.server.enqueue(
      call("read_file", { path: "fr.ts" }),
      call("apply_diff", { path: "fr.ts", diff: diff("const niveau = 3;", "const niveau = 4; // modifié") }),
      call("search_and_replace", { path: "prix.ts", search: '"5 €"', replace: '"7 €"' }),
      call("insert_content", { path: "utf16.txt", line: 0, content: "vierte Zeile: süß" }),
      call("apply_diff", { path: "ja.ts", diff: diff("const x = 1;", "const x = 2; // テスト") }),
      call("write_to_file", { path: "notes.md", content: "# Notes\n\nnew line", line_count: 3 }),
      call("write_to_file", { path: "bare.txt", content: "still no final newline\n", line_count: 1 }),
      call("write_to_file", { path: "fresh.txt", content: "a new file", line_count: 1 }),
      call("attempt_completion", { result: "All edited." }),
    );
    const result = await kiln("Edit the files");
    expect(result.stderr).not.toMatch(/kiln: /);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ All edited.");

    const requests = setup.server.requests.slice(before);
    expect(requests).toHaveLength(9);
    // The model reads the text, not U+FFFD where each accented letter is.
    expect(sent(requests[1]!)).toContain("1 | // Paramètres par défaut de l'élève");
    expect(sent(requests[2]!)).toContain("Applied 1 block to fr.ts.");
    expect(sent(requests[3]!)).toContain("Replaced 1 occurrence in prix.ts.");
    expect(sent(requests[4]!)).toContain("Inserted 1 line into utf16.txt at the end");
    expect(sent(requests[5]!)).toContain("Applied 1 block to ja.ts.");

    expect(bytesOf("fr.ts")).toEqual(Buffer.from(LATIN1.text.replace("const niveau = 3;", "const niveau = 4; // modifié"), "latin1"));
    const prix = Buffer.from(WINDOWS_1252.bytes);
    prix[prix.indexOf('"5 ') + 1] = "7".charCodeAt(0);
    expect(bytesOf("prix.ts")).toEqual(prix);
    expect(bytesOf("utf16.txt")).toEqual(Buffer.from(`\uFEFF${UTF16LE_BOM.text}vierte Zeile: süß\r\n`, "utf16le"));
    const comment = SHIFT_JIS.bytes.subarray(0, SHIFT_JIS.bytes.indexOf("const"));
    expect(bytesOf("ja.ts")).toEqual(Buffer.concat([comment, Buffer.from("const x = 2; // "), SHIFT_JIS_TESUTO, Buffer.from("\n")]));

    expect(bytesOf("notes.md").toString()).toBe("# Notes\n\nnew line\n");
    expect(bytesOf("bare.txt").toString()).toBe("still no final newline");
    expect(bytesOf("fresh.txt").toString()).toBe("a new file\n");
  });

  it("refuses to edit a binary file or one whose encoding cannot be told, and leaves both as they were", async () => {
    const png = pngWithText("hello world\nsecond line\n");
    writeFileSync(file("logo.png"), png);
    const short = Buffer.from("const s = 'é';\n", "latin1");
    writeFileSync(file("short.ts"), short);
    const before = setup.server.requests.length;
    setup.server.enqueue(
      call("apply_diff", { path: "logo.png", diff: diff("hello world", "hello there") }),
      call("write_to_file", { path: "logo.png", content: "not an image", line_count: 1 }),
      // Three failed calls in a row would end the task: a read in between.
      call("read_file", { path: "short.ts" }),
      call("search_and_replace", { path: "short.ts", search: "const", replace: "let" }),
      call("attempt_completion", { result: "Left them." }),
    );
    const result = await kiln("Edit them");
    expect(result.code).toBe(0);
    const requests = setup.server.requests.slice(before);
    expect(requests).toHaveLength(5);
    const binary = "Error: logo.png is a binary file (PNG image), not text; the edit tools change text files only, so nothing was changed.";
    expect(sent(requests[1]!)).toContain(binary);
    expect(sent(requests[2]!)).toContain(binary);
    expect(sent(requests[3]!)).toContain("[Encoding unknown: it is not UTF-8");
    expect(sent(requests[4]!)).toContain("Error: short.ts cannot be edited safely: it is not UTF-8, and its encoding cannot be told for certain");
    expect(bytesOf("logo.png")).toEqual(png);
    expect(bytesOf("short.ts")).toEqual(short);
  });
});
