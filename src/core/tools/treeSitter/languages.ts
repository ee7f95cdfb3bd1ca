import { extname } from "node:path";
import type { Grammar } from "./queries";

const BY_EXTENSION: Record<string, Grammar> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".c": "cpp",
  ".h": "cpp",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hh": "cpp",
  ".hpp": "cpp",
  ".hxx": "cpp",
  ".cs": "c-sharp",
  ".rb": "ruby",
  ".php": "php",
};

export function grammarFor(path: string): Grammar | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION);
