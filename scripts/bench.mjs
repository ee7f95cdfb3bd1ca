// `npm run bench`: bundles test/bench and runs it. Prints numbers; asserts nothing.
import * as esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const outfile = join(root, "out", "bench", "main.mjs");
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ["test/bench/main.ts"],
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  outfile,
  logLevel: "warning",
  // node-sqlite3-wasm finds its wasm beside its own script (__dirname, which an ESM bundle has not).
  external: ["puppeteer-core", "node-sqlite3-wasm"],
  // CommonJS dependencies (proper-lockfile) call require() for Node's modules.
  banner: { js: "import { createRequire as kilnCreateRequire } from 'node:module'; const require = kilnCreateRequire(import.meta.url);" },
});
const run = spawnSync(process.execPath, ["--expose-gc", outfile, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
