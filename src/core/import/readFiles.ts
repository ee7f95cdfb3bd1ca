import { readFile } from "node:fs/promises";
import { withoutBom } from "./textShape";

/** A source file's text without its byte order mark; a missing file is no error, just missing. */
export async function readText(path: string): Promise<{ text: string } | { missing: true } | { error: string }> {
  try {
    return { text: withoutBom(await readFile(path, "utf8")) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { missing: true };
    return { error: `${path} cannot be read (${code ?? String(err)})` };
  }
}
