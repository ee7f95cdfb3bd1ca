/** Small interfaces the host implements; the core gets its world only through these. */

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type {
  CallDirection,
  CallHierarchy,
  CallHierarchyCall,
  CallHierarchyItem,
  CodeLocation,
  LanguageAnswer,
  LanguageServices,
  RenameAnswer,
  RenameFileEdit,
  SymbolPosition,
  TextPosition,
  TextRange,
  WorkspaceSymbol,
} from "./languageServices";
