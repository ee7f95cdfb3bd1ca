import type { ImageData } from "./defineTool";

/**
 * What read_file can make of a file that is not plain text: documents become text (so line numbers
 * and ranges work as for any file), images go to vision models, anything else is described instead
 * of dumped as bytes the model cannot use.
 */
export type FileKind = { kind: "pdf" } | { kind: "docx" } | { kind: "image"; mediaType: ImageData["mediaType"] } | { kind: "binary"; type: string } | { kind: "text" };

/** Images are sent whole to the model; bigger ones cost too much context and many APIs refuse them. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGE_EXTENSIONS: Record<string, ImageData["mediaType"]> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

type Signature = { at?: number; bytes: number[] | string; type: string };

const PNG: Signature = { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: "PNG image" };
const JPEG: Signature = { bytes: [0xff, 0xd8, 0xff], type: "JPEG image" };
const GIF: Signature = { bytes: "GIF8", type: "GIF image" };
const RIFF: Signature = { bytes: "RIFF", type: "RIFF container" };
const WEBP: Signature = { at: 8, bytes: "WEBP", type: "WebP image" };
const PDF: Signature = { bytes: "%PDF-", type: "PDF document" };
const ZIP: Signature = { bytes: [0x50, 0x4b, 0x03, 0x04], type: "ZIP archive (or a format built on zip: docx, xlsx, jar, …)" };

/** Magic numbers of common binary formats, checked in order (the first match names the type). */
const SIGNATURES: Signature[] = [
  PNG,
  JPEG,
  GIF,
  WEBP,
  { at: 8, bytes: "WAVE", type: "WAV audio" },
  { at: 8, bytes: "AVI ", type: "AVI video" },
  { bytes: "BM", type: "BMP image" },
  { bytes: [0x00, 0x00, 0x01, 0x00], type: "ICO icon" },
  { bytes: [0x49, 0x49, 0x2a, 0x00], type: "TIFF image" },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], type: "TIFF image" },
  PDF,
  ZIP,
  { bytes: [0x1f, 0x8b], type: "gzip archive" },
  { bytes: "BZh", type: "bzip2 archive" },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], type: "xz archive" },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], type: "7-Zip archive" },
  { bytes: "Rar!", type: "RAR archive" },
  { at: 257, bytes: "ustar", type: "tar archive" },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], type: "ELF executable or library" },
  { bytes: "MZ", type: "Windows executable or DLL" },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], type: "Mach-O executable" },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], type: "Java class file or Mach-O universal binary" },
  { bytes: [0x00, 0x61, 0x73, 0x6d], type: "WebAssembly module" },
  { bytes: "SQLite format 3", type: "SQLite database" },
  { bytes: "wOFF", type: "WOFF font" },
  { bytes: "wOF2", type: "WOFF2 font" },
  { bytes: [0x00, 0x01, 0x00, 0x00], type: "TrueType font" },
  { bytes: "OTTO", type: "OpenType font" },
  { bytes: "ID3", type: "MP3 audio" },
  { bytes: "OggS", type: "Ogg audio/video" },
  { bytes: "fLaC", type: "FLAC audio" },
  { at: 4, bytes: "ftyp", type: "MP4/QuickTime media" },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], type: "Matroska/WebM video" },
];

/** By extension, for files whose first bytes say nothing (or were not recognised). */
const EXTENSION_TYPES: Record<string, string> = {
  exe: "Windows executable",
  dll: "Windows library",
  so: "shared library",
  dylib: "macOS library",
  o: "object file",
  a: "static library",
  class: "Java class file",
  jar: "Java archive",
  pyc: "Python bytecode",
  wasm: "WebAssembly module",
  zip: "ZIP archive",
  gz: "gzip archive",
  tgz: "gzip'd tar archive",
  db: "database",
  sqlite: "SQLite database",
  xlsx: "Excel workbook",
  pptx: "PowerPoint presentation",
  doc: "Word 97-2003 document (not supported; only .docx is extracted)",
  ttf: "TrueType font",
  otf: "OpenType font",
  woff: "WOFF font",
  woff2: "WOFF2 font",
  mp3: "MP3 audio",
  mp4: "MP4 video",
  mov: "QuickTime video",
  bin: "raw binary data",
};

function matches(bytes: Uint8Array, signature: Signature): boolean {
  const at = signature.at ?? 0;
  const expected = typeof signature.bytes === "string" ? [...signature.bytes].map((c) => c.charCodeAt(0)) : signature.bytes;
  if (bytes.length < at + expected.length) return false;
  return expected.every((b, i) => bytes[at + i] === b);
}

export function extensionOf(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? "";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The image type by extension alone, so read_file can refuse an oversized image before reading it. */
export function imageTypeByExtension(path: string): ImageData["mediaType"] | undefined {
  return IMAGE_EXTENSIONS[extensionOf(path)];
}

/** Image media types by their magic bytes: the content wins over a misleading extension. */
function imageTypeByContent(bytes: Uint8Array): ImageData["mediaType"] | undefined {
  if (matches(bytes, PNG)) return "image/png";
  if (matches(bytes, JPEG)) return "image/jpeg";
  if (matches(bytes, GIF)) return "image/gif";
  if (matches(bytes, RIFF) && matches(bytes, WEBP)) return "image/webp";
  return undefined;
}

/** UTF-16 and UTF-32 text is full of NUL bytes; its byte order mark says it is text all the same. */
function hasUnicodeBom(bytes: Uint8Array): boolean {
  const [a, b, c, d] = bytes;
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff);
}

function looksBinary(bytes: Uint8Array): boolean {
  if (hasUnicodeBom(bytes)) return false;
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export function guessBinaryType(path: string, bytes: Uint8Array): string {
  const signature = SIGNATURES.find((s) => matches(bytes, s));
  return signature?.type ?? EXTENSION_TYPES[extensionOf(path)] ?? "unknown binary format";
}

/** The content decides where it can (a PDF named .txt is still a PDF); a zip is a DOCX only by name. */
export function classify(path: string, bytes: Uint8Array): FileKind {
  if (matches(bytes, PDF)) return { kind: "pdf" };
  if (extensionOf(path) === "docx" && matches(bytes, ZIP)) return { kind: "docx" };
  const image = imageTypeByContent(bytes);
  if (image) return { kind: "image", mediaType: image };
  // A zip holds no NUL early when its first entry is stored uncompressed; it is still not text.
  if (looksBinary(bytes) || matches(bytes, ZIP)) return { kind: "binary", type: guessBinaryType(path, bytes) };
  return { kind: "text" };
}

/** Text of each page, headed by its number, so the model can cite a page as well as a line. */
export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  // Loaded on first use: pdf.js is large and most tasks never read a PDF.
  const { extractText, getDocumentProxy } = await import("unpdf");
  // pdf.js may take over (detach) the buffer it is given: hand it a copy. Verbosity 0 (errors only)
  // keeps its warnings off stdout, where the CLI's --json events go.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text.map((page, i) => `--- page ${i + 1} ---\n${page.trimEnd()}`).join("\n");
  } finally {
    await pdf.destroy();
  }
}

export async function extractDocxText(bytes: Uint8Array): Promise<string> {
  const mammoth = (await import("mammoth")).default;
  const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
  // mammoth ends each paragraph with a blank line; one is enough to tell them apart.
  return result.value.replace(/\n{3,}/g, "\n\n").trimEnd();
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
