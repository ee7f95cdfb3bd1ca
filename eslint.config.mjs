// The layer rules of docs/architecture.md, checked on every `npm test`, plus the few rules that
// catch real bugs (a promise nobody awaits or catches, a hook called conditionally).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Imports a layer may not make: a module by name, or gitignore-style patterns on the import string. */
const zone = (key, message, ...group) => ({ key, group, message });
const VSCODE = { name: "vscode", message: "Only src/hosts/vscode talks to VS Code." };
const HOSTS = zone("hosts", "Hosts depend on the core, never the other way.", "**/hosts/**", "**/hosts");
const PLATFORM = zone("platform", "The Node platform implements core ports; the core only knows the ports.", "**/platform/**", "**/platform");
const CORE = zone("core", "src/shared and the webview take only what src/shared offers.", "**/core/**", "**/core");
const NODE_BUILTINS = zone("node", "The webview runs in a browser: no Node built-ins.", "node:*");

/**
 * The same zones for what `no-restricted-imports` does not see: `import("…")`, `require("…")` and
 * inline `import("…").Type` types. `source` is a regular expression on the module string.
 */
const forbidSpelled = (source, message) => [
  { selector: `ImportExpression[source.value=/${source}/]`, message },
  { selector: `CallExpression[callee.name="require"][arguments.0.value=/${source}/]`, message },
  { selector: `TSImportType[argument.literal.value=/${source}/]`, message },
];
const SPELLED = {
  vscode: forbidSpelled("^vscode$", VSCODE.message),
  hosts: forbidSpelled("(^|\\/)hosts(\\/|$)", HOSTS.message),
  platform: forbidSpelled("(^|\\/)platform(\\/|$)", PLATFORM.message),
  core: forbidSpelled("(^|\\/)core(\\/|$)", CORE.message),
  node: forbidSpelled("^node:", NODE_BUILTINS.message),
};

const restrict = (files, zones, syntax = []) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { paths: [VSCODE], patterns: zones.map((z) => ({ group: z.group, message: z.message })) }],
    "no-restricted-syntax": ["error", ...SPELLED.vscode, ...zones.flatMap((z) => SPELLED[z.key]), ...syntax],
  },
});

/** src/core/ports is what a host implements: types only, so no code hides behind a port's name. */
const PORTS_ONLY = "src/core/ports holds interfaces only; code that uses or implements a port lives beside it in src/core or src/platform.";
const TYPES_ONLY = ["ClassDeclaration", "FunctionDeclaration", "VariableDeclaration", "TSEnumDeclaration"].map((node) => ({
  selector: `Program > ${node}, Program > ExportNamedDeclaration > ${node}`,
  message: PORTS_ONLY,
}));

export default tseslint.config(
  {
    ignores: ["node_modules/", "dist/", "out/", "test-results/", ".cache/", ".kiln-dev/", "webview-ui/dist/", "**/*.vsix", "test/fixtures/**/workspace*/", "test/vscode/workspace/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["*.mjs", "scripts/*.mjs", "scripts/lib/*.mjs"] }, tsconfigRootDir: import.meta.dirname },
      globals: { console: "readonly", process: "readonly", setTimeout: "readonly", clearTimeout: "readonly", URL: "readonly", Buffer: "readonly" },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A promise that nobody awaits or catches loses its error; `void p` says it is meant.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Kiln validates what crosses a boundary with its own parsers; `any` stays where a library's types force it.
      "@typescript-eslint/no-explicit-any": "off",
      // Inline `import("…").T` types keep optional modules out of a file's import graph.
      "@typescript-eslint/consistent-type-imports": "off",
      // Terminal output and model text are scrubbed of control characters on purpose.
      "no-control-regex": "off",
      // The webview tests load .tsx under two tsconfigs; only one of them needs the ignore, so expect-error cannot work.
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": "allow-with-description" }],
    },
  },
  {
    // Mocha's in-host suites must be loaded after its pre-require hook, so they are required in order.
    files: ["test/vscode/suite/index.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ["webview-ui/src/**/*.tsx", "webview-ui/src/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  restrict(["src/shared/**"], [HOSTS, PLATFORM, CORE]),
  { ...restrict(["webview-ui/src/**"], [HOSTS, PLATFORM, CORE, NODE_BUILTINS]), ignores: ["webview-ui/src/**/vite.config.mts"] },
  restrict(["src/core/**"], [HOSTS, PLATFORM]),
  restrict(["src/core/ports/**"], [HOSTS, PLATFORM], TYPES_ONLY),
  prettier,
);
