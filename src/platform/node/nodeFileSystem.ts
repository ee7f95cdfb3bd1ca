import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { dirname, join, basename } from "node:path";
import type { EntryType, FileStat, FileSystem } from "../../core/ports/fileSystem";

function typeOf(entry: { isFile(): boolean; isDirectory(): boolean }): EntryType {
  return entry.isFile() ? "file" : entry.isDirectory() ? "directory" : "other";
}

/** The FileSystem port on Node's fs: used by the CLI, and by the extension until the diff review lands. */
export class NodeFileSystem implements FileSystem {
  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const stat = await fs.stat(path);
      return { type: typeOf(stat), size: stat.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
      throw err;
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    return fs.readFile(path);
  }

  async readDirectory(path: string): Promise<{ name: string; type: EntryType }[]> {
    const entries = await fs.readdir(path, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, type: typeOf(e) }));
  }

  async writeFile(path: string, content: Uint8Array | string): Promise<void> {
    await fs.mkdir(dirname(path), { recursive: true });
    // Write beside the target and rename over it: a crash leaves the old file or the new one.
    const temp = join(dirname(path), `.${basename(path)}.kiln-${randomBytes(6).toString("hex")}.tmp`);
    try {
      await fs.writeFile(temp, content, { flag: "wx" });
      await fs.rename(temp, path);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  async delete(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const stat = await fs.lstat(path);
    if (stat.isDirectory()) await (options.recursive ? fs.rm(path, { recursive: true }) : fs.rmdir(path));
    else await fs.unlink(path);
  }
}
