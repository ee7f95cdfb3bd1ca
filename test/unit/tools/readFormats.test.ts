import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalRequest } from "../../../src/core/ports/approvals";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { classify, guessBinaryType } from "../../../src/core/tools/fileFormats";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { makeDocx, makePdf, makeZip, TINY_PNG } from "../../fixtures/files/documents";

let cwd: string;
let asked: ApprovalRequest[];

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-read-formats-"));
  asked = [];
});

function deps(): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async (r) => (asked.push(r), { approved: true }) },
    autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal },
  };
}

const read = (params: Record<string, string>) => runToolCall({ type: "tool_use", name: "read_file", params, partial: false } satisfies ToolUseBlock, deps());

describe("read_file: documents", () => {
  it("reads a PDF as numbered text, page by page", async () => {
    writeFileSync(join(cwd, "report.pdf"), makePdf([["Quarterly report", "Revenue (EUR) grew"], ["Page two text"]]));
    const result = await read({ path: "report.pdf" });
    expect(result.status).toBe("done");
    expect(result.forModel).toContain('<file path="report.pdf" kind="pdf" lines="1-5" total="5">');
    expect(result.forModel).toContain("1 | --- page 1 ---\n2 | Quarterly report\n3 | Revenue (EUR) grew\n4 | --- page 2 ---\n5 | Page two text");
  });

  it("applies line ranges to the extracted text", async () => {
    writeFileSync(join(cwd, "report.pdf"), makePdf([["alpha", "beta"], ["gamma"]]));
    const result = await read({ path: "report.pdf", start_line: "3", end_line: "5" });
    expect(result.forModel).toContain('lines="3-5"');
    expect(result.forModel).toContain("3 | beta\n4 | --- page 2 ---\n5 | gamma");
    expect(result.forModel).not.toContain("alpha");
    const past = await read({ path: "report.pdf", start_line: "9" });
    expect(past.forModel).toContain("Error: the extracted text has 5 lines; line 9 does not exist.");
  });

  it("reads a DOCX as its paragraphs' text", async () => {
    writeFileSync(join(cwd, "spec.docx"), makeDocx(["Title", "Body & details <here>"]));
    const result = await read({ path: "spec.docx" });
    expect(result.forModel).toContain('kind="docx"');
    expect(result.forModel).toContain("1 | Title\n2 | \n3 | Body & details <here>");
  });

  it("caps extracted text at 500 lines like any file", async () => {
    writeFileSync(join(cwd, "long.docx"), makeDocx(Array.from({ length: 300 }, (_, i) => `para ${i + 1}`)));
    const result = await read({ path: "long.docx" });
    expect(result.forModel).toContain("[Showing lines 1-500 of 599. Read on with start_line 501.]");
    expect(result.forModel).not.toContain("para 251");
  });

  it("says so when a document is damaged or holds no text", async () => {
    writeFileSync(join(cwd, "broken.pdf"), "%PDF-1.4\nthis is not really a pdf\n");
    expect((await read({ path: "broken.pdf" })).forModel).toMatch(/Error: could not extract text from this PDF \(.+\); it may be damaged or encrypted/);
    writeFileSync(join(cwd, "broken.docx"), makeZip({ "hello.txt": "not a word document" }));
    expect((await read({ path: "broken.docx" })).forModel).toMatch(/Error: could not extract text from this DOCX/);
    writeFileSync(join(cwd, "scan.pdf"), makePdf([[]]));
    expect((await read({ path: "scan.pdf" })).forModel).toContain("Error: this PDF holds no extractable text");
  });
});

describe("read_file: images and binaries", () => {
  it("attaches an image for vision models with a one-line text", async () => {
    writeFileSync(join(cwd, "logo.png"), TINY_PNG);
    const result = await read({ path: "logo.png" });
    expect(result.status).toBe("done");
    expect(result.forModel).toBe(`<file path="logo.png">Image (image/png, ${TINY_PNG.length} bytes), attached for you to view.</file>`);
    expect(result.status === "done" && result.images).toEqual([{ mediaType: "image/png", data: TINY_PNG.toString("base64") }]);
  });

  it("takes the image type from the content, not the extension", async () => {
    writeFileSync(join(cwd, "photo.jpg"), TINY_PNG);
    const result = await read({ path: "photo.jpg" });
    expect(result.status === "done" && result.images?.[0]?.mediaType).toBe("image/png");
  });

  it("refuses images over 5 MB before reading them", async () => {
    writeFileSync(join(cwd, "huge.png"), Buffer.alloc(6 * 1024 * 1024, 1));
    const result = await read({ path: "huge.png" });
    expect(result.forModel).toContain("Error: this image is 6.0 MB, over the 5.0 MB limit for images");
    expect(result.status === "done" && result.images).toBeUndefined();
  });

  it("describes other binary files by their magic bytes or extension instead of dumping them", async () => {
    writeFileSync(join(cwd, "tool"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]));
    expect((await read({ path: "tool" })).forModel).toBe('<file path="tool">Binary file (10 bytes): ELF executable or library; its content is not shown.</file>');
    writeFileSync(join(cwd, "data.sqlite"), Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(100)]));
    expect((await read({ path: "data.sqlite" })).forModel).toContain("SQLite database");
    writeFileSync(join(cwd, "bundle.zip"), makeZip({ "a.txt": "hello" }));
    expect((await read({ path: "bundle.zip" })).forModel).toContain("ZIP archive");
    writeFileSync(join(cwd, "blob.bin"), Buffer.from([9, 9, 0, 9]));
    expect((await read({ path: "blob.bin" })).forModel).toContain("Binary file (4 bytes): raw binary data");
  });

  it("reads several files at once, images gathered, still at most 5", async () => {
    writeFileSync(join(cwd, "a.png"), TINY_PNG);
    writeFileSync(join(cwd, "b.docx"), makeDocx(["bee"]));
    writeFileSync(join(cwd, "c.txt"), "sea\n");
    const result = await read({ args: "<file><path>a.png</path></file><file><path>b.docx</path></file><file><path>c.txt</path></file>" });
    expect(result.forModel).toContain("1 | bee");
    expect(result.forModel).toContain("1 | sea");
    expect(result.status === "done" && result.images).toHaveLength(1);
    const six = Array.from({ length: 6 }, (_, i) => `<file><path>f${i}.txt</path></file>`).join("");
    expect((await read({ args: six })).forModel).toContain("names 6 files; read at most 5 per call");
  });

  it("refuses FIFOs and devices without blocking on them", async () => {
    execFileSync("mkfifo", [join(cwd, "pipe")]);
    expect((await read({ path: "pipe" })).forModel).toContain("Error: not a regular file (a device, socket or FIFO)");
    expect((await read({ path: "/dev/zero" })).forModel).toContain("Error: not a regular file");
    expect(asked).toMatchObject([{ outsideWorkspace: true }]);
  });
});

describe("file type detection", () => {
  it("knows common formats and falls back to the extension", () => {
    expect(guessBinaryType("x", Buffer.from([0x1f, 0x8b, 8, 0]))).toBe("gzip archive");
    expect(guessBinaryType("x.wasm", Buffer.from([0, 0x61, 0x73, 0x6d]))).toBe("WebAssembly module");
    expect(guessBinaryType("font.woff2", Buffer.from("wOF2xxxx"))).toBe("WOFF2 font");
    expect(guessBinaryType("lib.so", Buffer.from([1, 0, 2]))).toBe("shared library");
    expect(guessBinaryType("mystery", Buffer.from([1, 0, 2]))).toBe("unknown binary format");
  });

  it("treats text as text, and a PDF by its content whatever its name", () => {
    expect(classify("notes.md", Buffer.from("# Notes\n..."))).toEqual({ kind: "text" });
    expect(classify("report.txt", makePdf([["x"]]))).toEqual({ kind: "pdf" });
    expect(classify("archive.zip", makeDocx(["x"]))).toMatchObject({ kind: "binary" });
    expect(classify("a.webp", Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toEqual({ kind: "image", mediaType: "image/webp" });
  });
});
