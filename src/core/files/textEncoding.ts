import { analyse } from "chardet";
import iconv from "iconv-lite";
import type { EncodingHint } from "../ports/fileSystem";

/**
 * How a text file's bytes become text and back, so that an edit rewrites only what it changes: the
 * encoding is told from the bytes where they say it (a byte order mark, valid UTF-8), else from what
 * the host knows (an editor holding the file, a setting), else by a detector, and every decoding is
 * checked to give back the very same bytes. Where none of that is sure, the file is not edited.
 */

/** A file's text (without its byte order mark) and how it is stored. */
export interface DecodedText {
  text: string;
  /** The encoding's name as iconv-lite and VS Code accept it: "utf8", "utf16le", "windows-1252", "Shift_JIS"… */
  encoding: string;
  /** The bytes start with a byte order mark (kept on write: the text then starts with U+FEFF). */
  bom: boolean;
}

export type Decoding = ({ ok: true } & DecodedText) | { ok: false; reason: string };

export const UTF8 = "utf8";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Byte order marks, longest first: UTF-32LE's begins with UTF-16LE's. */
const BOMS: { bytes: number[]; encoding: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: UTF8 },
  { bytes: [0xff, 0xfe, 0x00, 0x00], encoding: "utf32le" },
  { bytes: [0x00, 0x00, 0xfe, 0xff], encoding: "utf32be" },
  { bytes: [0xff, 0xfe], encoding: "utf16le" },
  { bytes: [0xfe, 0xff], encoding: "utf16be" },
];

/**
 * The detector's guess is taken only when it is this sure (chardet's 0-100) and this far ahead of the
 * best guess that reads the bytes differently. Measured on code files with comments in French,
 * German, Spanish, Portuguese, Russian, Greek, Polish, Japanese and Chinese in their legacy
 * encodings: guesses that passed both were right, but for a lone accented byte, which one more rule
 * turns away (at least two different non-ASCII bytes); the many short samples they turn away are
 * refused rather than guessed.
 */
const MIN_CONFIDENCE = 20;
const MIN_LEAD = 10;
const MIN_DISTINCT_HIGH_BYTES = 2;
/** The detector reads at most this much of a file: the lines holding non-ASCII bytes, where encodings differ. */
const SAMPLE_BYTES = 64 * 1024;

/** For comparing names: "Windows-1252", "windows1252" and "WINDOWS_1252" are one encoding; VS Code's "utf8bom" is UTF-8. */
export function encodingId(name: string): string {
  const id = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return id === "utf8bom" ? UTF8 : id;
}

export function isUtf8(name: string): boolean {
  return encodingId(name) === UTF8;
}

/** The file's text and encoding, or why its bytes cannot be read as text for certain. */
export function decodeBytes(bytes: Uint8Array, hint?: EncodingHint): Decoding {
  const bom = BOMS.find((b) => b.bytes.every((byte, i) => bytes[i] === byte));
  if (bom) {
    const decoded = roundTrip(bytes.subarray(bom.bytes.length), bom.encoding);
    if (decoded === undefined) return { ok: false, reason: `it starts with a ${label(bom.encoding)} byte order mark, but the bytes after it are not valid ${label(bom.encoding)}` };
    return { ok: true, text: decoded, encoding: bom.encoding, bom: true };
  }
  // An editor holding the file shows it in its encoding: what the user sees is what an edit starts from.
  if (hint?.source === "editor") {
    const fromEditor = tryHint(bytes, hint.encoding);
    if (fromEditor) return fromEditor;
  }
  const setting = hint?.source === "setting" ? hint.encoding : undefined;
  // Plain ASCII reads the same in every encoding a setting would name; the setting then decides how new characters are written.
  if (setting && !bytes.some((b) => b >= 0x80)) {
    const fromSetting = tryHint(bytes, setting);
    if (fromSetting && fromSetting.text === asciiText(bytes)) return fromSetting;
  }
  const utf8 = strictUtf8(bytes);
  if (utf8 !== undefined) return { ok: true, text: utf8, encoding: UTF8, bom: false };
  const fromSetting = setting ? tryHint(bytes, setting) : undefined;
  if (fromSetting) return fromSetting;
  return detect(bytes);
}

/**
 * The text as bytes in `encoding` (a leading U+FEFF becomes that encoding's byte order mark). Throws
 * when the encoding cannot hold a character: writing a substitute would change the text.
 */
export function encodeText(text: string, encoding: string): Uint8Array {
  const missing = unencodable(text, encoding);
  if (missing.length > 0) throw new Error(`${label(encoding)} cannot hold ${missing.map((c) => JSON.stringify(c)).join(", ")}`);
  return isUtf8(encoding) ? new TextEncoder().encode(text) : iconv.encode(text, encoding);
}

/** Characters of `text` that `encoding` cannot hold (the first few, each once). */
export function unencodable(text: string, encoding: string): string[] {
  // Half a surrogate pair is no character at all: no encoding holds it.
  const halves = text.match(LONE_SURROGATE);
  if (halves) return [...new Set(halves)].slice(0, 5);
  if (/^[\x00-\x7f]*$/.test(text) || /^utf(8|16|32)/.test(encodingId(encoding))) return [];
  const missing = new Set<string>();
  for (const char of new Set(text.replace(/[\x00-\x7f]/g, ""))) {
    // One character at a time: a stateful or multi-byte encoding still round-trips a lone character it holds.
    if (iconv.decode(iconv.encode(char, encoding), encoding) !== char) missing.add(char);
    if (missing.size >= 5) break;
  }
  return [...missing];
}

/** A readable name for messages: "Shift_JIS" stays as the detector wrote it, VS Code's ids get their usual spelling. */
export function label(encoding: string): string {
  const id = encodingId(encoding);
  if (id === UTF8) return "UTF-8";
  const unicode = /^utf(16|32)(le|be)$/.exec(id);
  if (unicode) return `UTF-${unicode[1]}${unicode[2]!.toUpperCase()}`;
  const windows = /^windows(\d+)$/.exec(id);
  if (windows) return `windows-${windows[1]}`;
  const iso = /^iso8859(\d+)$/.exec(id);
  if (iso) return `ISO-8859-${iso[1]}`;
  return encoding;
}

/** The bytes in the encoding a host named, where it knows that encoding and it gives back the same bytes. */
function tryHint(bytes: Uint8Array, encoding: string): ({ ok: true } & DecodedText) | undefined {
  if (!isUtf8(encoding) && !iconv.encodingExists(encoding)) return undefined;
  const text = roundTrip(bytes, encoding);
  return text === undefined ? undefined : { ok: true, text, encoding: isUtf8(encoding) ? UTF8 : encoding, bom: false };
}

function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function asciiText(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("latin1");
}

/** The text, when encoding it again gives back exactly these bytes (else an edit would change bytes it did not touch). */
function roundTrip(bytes: Uint8Array, encoding: string): string | undefined {
  if (isUtf8(encoding)) return strictUtf8(bytes);
  const text = iconv.decode(Buffer.from(bytes), encoding, { stripBOM: false });
  const again = iconv.encode(text, encoding);
  return Buffer.compare(again, Buffer.from(bytes)) === 0 ? text : undefined;
}

/** The lines that hold non-ASCII bytes: the ASCII around them reads alike in every candidate and drowns the evidence. */
function sampleOf(bytes: Uint8Array): Uint8Array {
  const lines: Uint8Array[] = [];
  let size = 0;
  let start = 0;
  let high = false;
  for (let i = 0; i <= bytes.length && size < SAMPLE_BYTES; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      if (high) {
        const line = bytes.subarray(start, Math.min(i + 1, start + SAMPLE_BYTES - size));
        lines.push(line);
        size += line.length;
      }
      start = i + 1;
      high = false;
    } else if (bytes[i]! >= 0x80) high = true;
  }
  return Buffer.concat(lines);
}

function detect(bytes: Uint8Array): Decoding {
  const sample = sampleOf(bytes);
  const distinct = new Set(sample.filter((b) => b >= 0x80)).size;
  const candidates = analyse(sample).filter((m) => m.name !== "ASCII" && iconv.encodingExists(m.name));
  const best = candidates[0];
  const unsure = (why: string): Decoding => ({ ok: false, reason: `it is not UTF-8, and its encoding cannot be told for certain: ${why}` });
  if (!best) return unsure("no encoding the detector knows fits its bytes");
  const seen = iconv.decode(Buffer.from(sample), best.name);
  const rival = candidates.find((m) => iconv.decode(Buffer.from(sample), m.name) !== seen);
  const guess = `${best.name} (${best.confidence}% sure${rival ? `, ${rival.name} ${rival.confidence}%` : ""})`;
  if (distinct < MIN_DISTINCT_HIGH_BYTES) return unsure(`it holds too few non-ASCII characters to tell; the best guess is ${guess}`);
  if (best.confidence < MIN_CONFIDENCE || best.confidence - (rival?.confidence ?? 0) < MIN_LEAD) return unsure(`the best guess, ${guess}, is too unsure`);
  const text = roundTrip(bytes, best.name);
  if (text === undefined) return unsure(`the best guess, ${best.name}, does not give back the same bytes`);
  return { ok: true, text, encoding: best.name, bom: false };
}
