import { accessSync, chmodSync, constants, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Finds a file Kiln needs at run time (the rg binary, tree-sitter wasm). The bundles (dist/extension.js,
 * dist/cli.js, or a test's bundle in a temp folder) have esbuild.mjs copy them beside themselves, so
 * that comes first; from source (vitest) and as a last resort, the npm package that ships the file.
 */
export function findAsset(bundleRelative: string, packagePath: string): string | undefined {
  // An ESM bundle (the benchmarks) has no __filename; node_modules is then looked up from the cwd.
  const here = typeof __filename === "string" ? __filename : undefined;
  const beside = here ? join(dirname(here), bundleRelative) : undefined;
  if (beside && existsSync(beside)) return beside;
  try {
    return createRequire(here ?? join(process.cwd(), "index.js")).resolve(packagePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") return undefined;
    throw err;
  }
}

/** Some archive tools (a .vsix unpacked by hand) drop the executable bit; put it back if we may. */
export function ensureExecutable(path: string): boolean {
  if (process.platform === "win32") return true;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    try {
      chmodSync(path, 0o755);
      return true;
    } catch (err) {
      console.warn(`kiln: ${path} is not executable and could not be made so: ${(err as Error).message}`);
      return false;
    }
  }
}
