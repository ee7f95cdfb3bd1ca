// Bundles: the extension (CommonJS, `vscode` external) and the headless CLI, which leaves `vscode`
// unresolvable on purpose: a `vscode` import reachable from the core fails this build.
// `--tests` also bundles the in-host test suite and the fake model server; `--watch` rebuilds.
import * as esbuild from "esbuild";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const production = process.env.NODE_ENV === "production";

const common = {
  absWorkingDir: root,
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
};

/** @type {import('esbuild').BuildOptions} */
export const cliOptions = {
  ...common,
  entryPoints: ["src/hosts/cli/main.ts"],
  outfile: "dist/cli.js",
  format: "cjs",
  banner: { js: "#!/usr/bin/env node" },
  external: [],
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
  const all = [extensionOptions, cliOptions, ...(args.has("--tests") ? testOptions : [])];
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
