import * as l10n from "@vscode/l10n";
import { MAX_IMAGES, type AttachedImage } from "../../src/shared/protocol/messages";

const TYPES = new Set<string>(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/** The host refuses more (base64 grows a file by a third). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export type ReadResult = { ok: true; image: AttachedImage } | { ok: false; reason: string };

interface FileLike {
  name: string;
  type: string;
  size: number;
}

/** Checks a pasted or dropped file before it is read; the reason names the file. */
export function checkImageFile(file: FileLike): string | undefined {
  if (!TYPES.has(file.type)) return file.name ? l10n.t("{0} is not a PNG, JPEG, GIF or WebP image", file.name) : l10n.t("the pasted item is not a PNG, JPEG, GIF or WebP image");
  if (file.size > MAX_IMAGE_BYTES) return file.name ? l10n.t("{0} is larger than 5 MB", file.name) : l10n.t("the pasted image is larger than 5 MB");
  return undefined;
}

/** A data: URL from FileReader as the protocol's image. */
export function imageFromDataUrl(url: string): AttachedImage | undefined {
  const match = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/.exec(url);
  return match ? { mediaType: match[1] as AttachedImage["mediaType"], data: match[2]! } : undefined;
}

export function readImageFile(file: File): Promise<ReadResult> {
  const problem = checkImageFile(file);
  if (problem) return Promise.resolve({ ok: false, reason: problem });
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => {
      const image = typeof reader.result === "string" ? imageFromDataUrl(reader.result) : undefined;
      resolve(image ? { ok: true, image } : { ok: false, reason: file.name ? l10n.t("{0} could not be read", file.name) : l10n.t("the image could not be read") });
    };
    reader.onerror = () => resolve({ ok: false, reason: file.name ? l10n.t("{0} could not be read", file.name) : l10n.t("the image could not be read") });
    reader.readAsDataURL(file);
  });
}

/** How many of `incoming` still fit beside `current`. */
export function roomFor(current: number): number {
  return Math.max(0, MAX_IMAGES - current);
}
