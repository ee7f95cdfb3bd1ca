// Bundles: the extension (CommonJS, `vscode` external) and the headless CLI, which leaves `vscode`
// unresolvable on purpose: a `vscode` import reachable from the core fails this build.
// `--tests` also bundles the in-host test suite and the fake model server; `--watch` rebuilds.
import * as esbuild from "esbuild";
import { spawn } from "node:child_process";
import { chmod, copyFile, mkdir, rename, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const production = process.env.NODE_ENV === "production";
const require = createRequire(import.meta.url);

/** Tree-sitter grammars list_code_definition_names loads (src/core/tools/treeSitter/queries.ts). */
export const GRAMMARS = ["typescript", "tsx", "javascript", "python", "go", "rust", "java", "cpp", "c-sharp", "ruby", "php"];

/**
 * Files the bundles load at run time, as [package path, path beside the bundle]: the core looks
 * beside its bundle first (src/core/tools/bundledAssets.ts), so a bundle and its folder work anywhere.
 */
export function runtimeAssets() {
  const rg = process.platform === "win32" ? "rg.exe" : "rg";
  return [
    [`@vscode/ripgrep-${process.platform}-${process.arch}/bin/${rg}`, `bin/${rg}`],
    ["web-tree-sitter/web-tree-sitter.wasm", "wasm/web-tree-sitter.wasm"],
    ...GRAMMARS.map((g) => [`@vscode/tree-sitter-wasm/wasm/tree-sitter-${g}.wasm`, `wasm/tree-sitter-${g}.wasm`]),
    // The approval policy reads command lines with the bash grammar (src/core/approval/shell).
    ["@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm", "wasm/tree-sitter-bash.wasm"],
    // The codebase index's SQLite (src/core/codeIndex/indexDatabase.ts): its loader reads the wasm
    // from the folder of the script it is bundled into, so beside the bundle, not under wasm/.
    ["node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm", "node-sqlite3-wasm.wasm"],
  ];
}

async function copyRuntimeAssets(outdir) {
  for (const [packagePath, target] of runtimeAssets()) {
    let from;
    try {
      from = require.resolve(packagePath);
    } catch {
      console.warn(`[esbuild] ${packagePath} is not installed (an optional dependency for another platform?); the bundle will lack ${target}`);
      continue;
    }
    const to = join(outdir, target);
    const [source, existing] = await Promise.all([stat(from), stat(to).catch(() => undefined)]);
    if (existing && existing.size === source.size && existing.mtimeMs >= source.mtimeMs) continue;
    await mkdir(dirname(to), { recursive: true });
    // Copy beside and rename over: two bundles finishing at once, or an rg that is running, stay safe.
    const temp = `${to}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await copyFile(from, temp);
    await chmod(temp, source.mode);
    await rename(temp, to);
  }
}

/** Copies the runtime assets next to the bundle's outfile after each successful build. */
const runtimeAssetsPlugin = {
  name: "kiln-runtime-assets",
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      await copyRuntimeAssets(dirname(resolve(root, build.initialOptions.outfile)));
    });
  },
};

const common = {
  absWorkingDir: root,
  // The bundles are CommonJS: web-tree-sitter's ESM build reads import.meta.url, empty there.
  // jsonc-parser's main build is UMD, whose require("./impl/…") esbuild cannot follow: its ESM build can be.
  alias: { "web-tree-sitter": "./node_modules/web-tree-sitter/web-tree-sitter.cjs", "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js" },
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "warning",
  legalComments: "none",
};

/** @type {import('esbuild').BuildOptions} */
export const extensionOptions = {
  ...common,
  entryPoints: ["src/hosts/vscode/extension.ts"],
  outfile: "dist/extension.js",
  format: "cjs",
  external: ["vscode"],
  plugins: [runtimeAssetsPlugin],
};

/** The codebase index's worker thread, which the extension starts (src/platform/node/workerCodeIndex.ts). */
/** @type {import('esbuild').BuildOptions} */
export const indexWorkerOptions = {
  ...common,
  entryPoints: ["src/platform/node/indexWorker.ts"],
  outfile: "dist/indexWorker.js",
  format: "cjs",
  external: [],
  plugins: [runtimeAssetsPlugin],
};

/** @type {import('esbuild').BuildOptions} */
export const cliOptions = {
  ...common,
  entryPoints: ["src/hosts/cli/main.ts"],
  outfile: "dist/cli.js",
  format: "cjs",
  banner: { js: "#!/usr/bin/env node" },
  external: [],
  plugins: [runtimeAssetsPlugin],
};

/** @type {import('esbuild').BuildOptions[]} */
export const testOptions = [
  {
    ...common,
    sourcemap: "inline",
    entryPoints: ["test/vscode/suite/index.ts"],
    outfile: "out/test/vscode/index.js",
    format: "cjs",
    // mocha loads its reporters dynamically; it is required from node_modules at run time.
    external: ["vscode", "mocha"],
  },
  {
    ...common,
    entryPoints: ["test/fixtures/fakeModelServerMain.ts"],
    outfile: "out/fake-model-server.mjs",
    format: "esm",
  },
];

async function main() {
  const args = new Set(process.argv.slice(2));
  const all = [extensionOptions, indexWorkerOptions, cliOptions, ...(args.has("--tests") ? testOptions : [])];
  if (args.has("--watch")) {
    for (const options of all) {
      const ctx = await esbuild.context({ ...options, logLevel: "info" });
      await ctx.watch();
    }
    // The webview is Vite's: watch it in the same terminal.
    spawn(process.execPath, [join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--watch", "--config", "webview-ui/vite.config.mts"], {
      cwd: root,
      stdio: "inherit",
    });
    console.log("[esbuild] watching src/ and webview-ui/ (Ctrl+C to stop)");
    return;
  }
  await Promise.all(all.map((options) => esbuild.build(options)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
