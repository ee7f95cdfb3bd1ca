import { readFile } from "node:fs/promises";
import type { Language } from "web-tree-sitter";
import { findAsset } from "../tools/bundledAssets";

type TreeSitter = typeof import("web-tree-sitter");

// Parsers are wasm instances: loading one costs milliseconds and memory, so the runtime and each
// grammar are loaded once per process, on first use, and kept. Promises (not values) so concurrent
// calls share a load; a failed load is not kept, so the next call tries again.
let runtime: Promise<TreeSitter> | undefined;
const languages = new Map<string, Promise<Language>>();

function wasmPath(file: string, packagePath: string): string {
  const path = findAsset(`wasm/${file}`, packagePath);
  if (!path) throw new Error(`${file} is missing from this installation (looked beside the bundle and in node_modules)`);
  return path;
}

export function loadRuntime(): Promise<TreeSitter> {
  runtime ??= (async () => {
    const treeSitter = await import("web-tree-sitter");
    const wasmBinary = await readFile(wasmPath("web-tree-sitter.wasm", "web-tree-sitter/web-tree-sitter.wasm"));
    // Handing over the bytes keeps emscripten from guessing a location from the bundle's URL.
    await treeSitter.Parser.init({ wasmBinary });
    return treeSitter;
  })();
  runtime.catch(() => (runtime = undefined));
  return runtime;
}

/** A grammar from @vscode/tree-sitter-wasm by its name there (`bash`, `typescript`, `c-sharp`…). */
export function loadLanguage(grammar: string): Promise<Language> {
  let loaded = languages.get(grammar);
  if (!loaded) {
    loaded = (async () => {
      const { Language } = await loadRuntime();
      const file = `tree-sitter-${grammar}.wasm`;
      return Language.load(await readFile(wasmPath(file, `@vscode/tree-sitter-wasm/wasm/${file}`)));
    })();
    languages.set(grammar, loaded);
    loaded.catch(() => languages.delete(grammar));
  }
  return loaded;
}
