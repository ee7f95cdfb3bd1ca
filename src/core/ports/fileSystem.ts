export type EntryType = "file" | "directory" | "other";

export interface FileStat {
  type: EntryType;
  size: number;
}

/**
 * What the host knows of a file's encoding beyond its bytes. "editor": an editor holds the file in it
 * (the text the user sees); "setting": the user's setting for files like it (VS Code's files.encoding).
 */
export interface EncodingHint {
  /** An encoding name as VS Code and iconv-lite spell it: "windows1252", "iso88591", "shiftjis"… */
  encoding: string;
  source: "editor" | "setting";
}

/** What tools may do to files. Hosts implement it (Node fs, VS Code's workspace.fs, an in-memory fake). */
export interface FileSystem {
  stat(path: string): Promise<FileStat | undefined>;
  readFile(path: string): Promise<Uint8Array>;
  readDirectory(path: string): Promise<{ name: string; type: EntryType }[]>;
  /**
   * Atomic: the file holds either its old content or all of the new one, never a mix. Bytes are
   * written as they are; a string as UTF-8 (edits of text files pass bytes in the file's encoding).
   */
  writeFile(path: string, content: Uint8Array | string): Promise<void>;
  /** A file, or a folder with everything in it when recursive (else only an empty folder). */
  delete(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** The host's word on the file's encoding, for bytes that do not say it themselves; absent: the bytes alone decide. */
  encodingHint?(path: string): Promise<EncodingHint | undefined>;
}
