/**
 * The editor's own code intelligence: the language servers behind go to definition, find all
 * references, the symbol search and the call hierarchy. The VS Code host answers through its
 * language providers (whatever extensions the user has for each language); the CLI has none, so its
 * tasks are not offered these tools. Plain data only: positions are numbers, files absolute paths.
 */

/** A place in a text: both numbers 0-based, the character counted in UTF-16 code units (as editors do). */
export interface TextPosition {
  line: number;
  character: number;
}

export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

/** Where something is in a file. */
export interface CodeLocation {
  /** Absolute path. */
  path: string;
  /** The name itself (a definition's identifier, a reference). */
  range: TextRange;
  /** The whole declaration around it (a function with its body), where the server says. */
  fullRange?: TextRange;
}

/** A position in a file, as a tool found it (the symbol's first character on the line). */
export interface SymbolPosition {
  /** Absolute path. */
  path: string;
  position: TextPosition;
}

/** A server's answer, with the language the editor reads the file as ("typescript", "plaintext"…). */
export interface LanguageAnswer<T> {
  language: string;
  result: T;
}

export interface WorkspaceSymbol {
  name: string;
  /** As the editor names symbol kinds, in lower case: "function", "class", "method", "variable"… */
  kind: string;
  /** The class, namespace or module it belongs to, where the server says. */
  container?: string;
  location: CodeLocation;
}

/** A function, method or constructor in the call hierarchy. */
export interface CallHierarchyItem {
  name: string;
  kind: string;
  /** More about it (its signature, its container), where the server says. */
  detail?: string;
  /** `range`: its name; `fullRange`: the whole declaration. */
  location: CodeLocation;
}

/** One level of the hierarchy: who calls the item (incoming) or what it calls (outgoing). */
export interface CallHierarchyCall {
  /** The caller (incoming) or the callee (outgoing). */
  item: CallHierarchyItem;
  /** Where the calls are: in the caller's file for incoming calls, in the item's own file for outgoing ones. */
  callSites: TextRange[];
}

export type CallDirection = "incoming" | "outgoing";

export interface CallHierarchy {
  /** What the position names: usually one, several where the server sees overloads. */
  items: CallHierarchyItem[];
  calls: CallHierarchyCall[];
}

/** One file's changes of a rename: each range of the file as it is now, and its new text. */
export interface RenameFileEdit {
  /** Absolute path. */
  path: string;
  edits: { range: TextRange; newText: string }[];
}

export type RenameAnswer =
  /** The changes, file by file; empty where the server found nothing to rename. */
  | { ok: true; files: RenameFileEdit[] }
  /** The server refuses to rename there (a keyword, a library's symbol), in its own words. */
  | { ok: false; reason: string };

/**
 * Each call opens the file as the editor has it (unsaved changes included) and asks the servers for
 * its language. An empty answer means no server knew anything there, or there is no server for the
 * file's language. A call may throw when the file cannot be opened as text.
 */
export interface LanguageServices {
  definitions(at: SymbolPosition): Promise<LanguageAnswer<CodeLocation[]>>;
  /** Every use of the symbol, its declaration included. */
  references(at: SymbolPosition): Promise<LanguageAnswer<CodeLocation[]>>;
  /** Symbols of the whole workspace whose name matches the query (as each server matches: usually fuzzy). */
  workspaceSymbols(query: string): Promise<WorkspaceSymbol[]>;
  /** One level of calls; no items where no function, method or constructor is at the position. */
  calls(at: SymbolPosition, direction: CallDirection): Promise<LanguageAnswer<CallHierarchy>>;
  /** What renaming the symbol at the position to `newName` would change; nothing is written. Absent where the host cannot. */
  rename?(at: SymbolPosition, newName: string): Promise<LanguageAnswer<RenameAnswer>>;
}
