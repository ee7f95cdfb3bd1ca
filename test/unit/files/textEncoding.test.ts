import { describe, expect, it } from "vitest";
import { decodeBytes, encodeText, unencodable } from "../../../src/core/files/textEncoding";
import { LATIN1, SHIFT_JIS, UTF16LE_BOM, WINDOWS_1252 } from "../../fixtures/files/encodings";

const latin1 = (text: string) => Buffer.from(text, "latin1");

describe("telling a file's encoding", () => {
  it("by its byte order mark, which is kept", () => {
    expect(decodeBytes(Buffer.from("\uFEFFsalt", "utf8"))).toEqual({ ok: true, text: "salt", encoding: "utf8", bom: true });
    expect(decodeBytes(UTF16LE_BOM.bytes)).toEqual({ ok: true, text: UTF16LE_BOM.text, encoding: "utf16le", bom: true });
    const be = Buffer.from("\uFEFFgrün", "utf16le").swap16();
    expect(decodeBytes(be)).toEqual({ ok: true, text: "grün", encoding: "utf16be", bom: true });
  });

  it("refuses a byte order mark the rest of the file does not match", () => {
    const odd = Buffer.concat([UTF16LE_BOM.bytes, Buffer.from([0x41])]);
    expect(decodeBytes(odd)).toEqual({ ok: false, reason: "it starts with a UTF-16LE byte order mark, but the bytes after it are not valid UTF-16LE" });
  });

  it("valid UTF-8 is UTF-8, also where a setting names another encoding", () => {
    expect(decodeBytes(Buffer.from("grün\n"), { encoding: "windows1252", source: "setting" })).toEqual({ ok: true, text: "grün\n", encoding: "utf8", bom: false });
  });

  it("an editor that holds the file in its encoding is what the user sees, and wins over UTF-8", () => {
    // "grün" in UTF-8, opened as Latin-1 by the user: the editor shows (and would save) "grÃ¼n".
    expect(decodeBytes(Buffer.from("grün\n"), { encoding: "iso88591", source: "editor" })).toMatchObject({ ok: true, text: "grÃ¼n\n", encoding: "iso88591" });
    // An editor that read a Latin-1 file as UTF-8 shows U+FFFD: its encoding does not fit, the detector decides.
    expect(decodeBytes(LATIN1.bytes, { encoding: "utf8", source: "editor" })).toMatchObject({ ok: true, text: LATIN1.text, encoding: "ISO-8859-1" });
  });

  it("plain ASCII takes a setting's encoding, for the characters an edit adds; one that reads ASCII otherwise is ignored", () => {
    expect(decodeBytes(Buffer.from("plain\n"), { encoding: "windows1252", source: "setting" })).toMatchObject({ ok: true, encoding: "windows1252" });
    expect(decodeBytes(Buffer.from("plain\n"), { encoding: "utf16le", source: "setting" })).toMatchObject({ ok: true, encoding: "utf8" });
    expect(decodeBytes(Buffer.from("plain\n"))).toMatchObject({ ok: true, encoding: "utf8" });
  });

  it("the detector tells legacy encodings from enough text", () => {
    expect(decodeBytes(LATIN1.bytes)).toEqual({ ok: true, text: LATIN1.text, encoding: "ISO-8859-1", bom: false });
    expect(decodeBytes(WINDOWS_1252.bytes)).toEqual({ ok: true, text: WINDOWS_1252.text, encoding: "windows-1252", bom: false });
    expect(decodeBytes(SHIFT_JIS.bytes)).toEqual({ ok: true, text: SHIFT_JIS.text, encoding: "Shift_JIS", bom: false });
  });

  it("looks past the ASCII around the evidence: a Cyrillic comment in a long file is not Latin-1", () => {
    const code = Array.from({ length: 40 }, (_, i) => `  const value${i} = compute(${i}, "item");`).join("\n");
    // "// Привет мир, это тест программы" in Windows-1251, written out.
    const comment = Buffer.from("2f2f20cff0e8e2e5f220ece8f02c20fdf2ee20f2e5f1f220eff0eee3f0e0ececfb0a", "hex");
    expect(new TextDecoder("windows-1251").decode(comment)).toBe("// Привет мир, это тест программы\n");
    expect(decodeBytes(Buffer.concat([Buffer.from(`${code}\n`), comment]))).toMatchObject({ ok: true, encoding: "windows-1251" });
  });

  it("refuses when the evidence is too thin to tell, or the guess too unsure", () => {
    const one = decodeBytes(latin1("x = 'é'\n"));
    expect(one.ok).toBe(false);
    expect(!one.ok && one.reason).toMatch(/^it is not UTF-8, and its encoding cannot be told for certain: it holds too few non-ASCII characters to tell; the best guess is /);
    // Two Japanese characters in Shift_JIS read as well as Big5 or EUC-JP.
    const short = decodeBytes(Buffer.concat([Buffer.from("// "), Buffer.from("93fa967b", "hex"), Buffer.from("\n")]));
    expect(short.ok).toBe(false);
    expect(!short.ok && short.reason).toMatch(/is too unsure$/);
  });
});

describe("writing text back", () => {
  it("gives the same bytes for the same text, the BOM included", () => {
    expect(Buffer.from(encodeText(LATIN1.text, "ISO-8859-1"))).toEqual(LATIN1.bytes);
    expect(Buffer.from(encodeText(WINDOWS_1252.text, "windows-1252"))).toEqual(WINDOWS_1252.bytes);
    expect(Buffer.from(encodeText(SHIFT_JIS.text, "Shift_JIS"))).toEqual(SHIFT_JIS.bytes);
    expect(Buffer.from(encodeText(`\uFEFF${UTF16LE_BOM.text}`, "utf16le"))).toEqual(UTF16LE_BOM.bytes);
  });

  it("names the characters an encoding cannot hold, and will not write a substitute for them", () => {
    expect(unencodable("café → thé ✓ €", "ISO-8859-1")).toEqual(["→", "✓", "€"]);
    expect(unencodable("café → thé", "utf8")).toEqual([]);
    expect(unencodable("half \uD800 a pair", "utf8")).toEqual(["\uD800"]);
    expect(() => encodeText("café →", "ISO-8859-1")).toThrow('ISO-8859-1 cannot hold "→"');
  });
});
