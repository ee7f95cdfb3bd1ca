export type EntryType = "file" | "directory" | "other";

export interface FileStat {
  type: EntryType;
  size: number;
}

/** What tools may do to files. Hosts implement it (Node fs, VS Code's workspace.fs, an in-memory fake). */
export interface FileSystem {
  stat(path: string): Promise<FileStat | undefined>;
  readFile(path: string): Promise<Uint8Array>;
  readDirectory(path: string): Promise<{ name: string; type: EntryType }[]>;
  /** Atomic: the file holds either its old content or all of the new one, never a mix. */
  writeFile(path: string, content: string): Promise<void>;
  /** A file, or a folder with everything in it when recursive (else only an empty folder). */
  delete(path: string, options?: { recursive?: boolean }): Promise<void>;
}
