/**
 * Options of common tools that write files, read outside the workspace or run code. A prefix like
 * `git log` or `npm test` allows a tool the user trusts to look; with one of these it does more, so
 * the call asks. Long options are matched as their tools match them: `--out=x` is `--output=x` to
 * git and npm, which take any unambiguous abbreviation.
 */

interface ToolOptions {
  /** Options anywhere among the arguments. */
  any: readonly string[];
  /** Options before the subcommand only (`git -c x=y log`), where they mean something else after it. */
  global?: readonly string[];
  /** Options of one subcommand. */
  sub?: Readonly<Record<string, readonly string[]>>;
  /** Tools whose every option is a single-dash word (`find -exec`): no clusters, no abbreviations. */
  singleDashWords?: boolean;
  /** After `--` the words belong to something else (npm hands them to the script). */
  stopsAtDoubleDash?: boolean;
}

const NPM_LIKE: ToolOptions = {
  any: [
    "--node-options",
    "--script-shell",
    "--userconfig",
    "--globalconfig",
    "--prefix",
    "--call",
    "-c",
    "--shell",
    "--init-module",
    "--editor",
    "--browser",
    "--git",
    "--cache",
    "--registry",
    "--require",
    "--import",
    "--loader",
  ],
  stopsAtDoubleDash: true,
};

const RUNTIME: ToolOptions = { any: ["-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file"] };

const TOOLS: Readonly<Record<string, ToolOptions>> = {
  git: {
    global: ["-c", "--config-env", "-C", "--git-dir", "--work-tree", "--exec-path", "--namespace", "--super-prefix", "-p", "--paginate"],
    any: [
      "--output",
      "--upload-pack",
      "--receive-pack",
      "--exec",
      "--no-index",
      "--ext-diff",
      "--textconv",
      "--open-files-in-pager",
      "-O",
      "--config",
      "--template",
      "--extcmd",
      "--tool",
      "--contents",
      "--output-directory",
    ],
    sub: {
      fetch: ["-u"],
      pull: ["-u"],
      clone: ["-u"],
      "ls-remote": ["-u"],
      archive: ["-o", "--remote"],
      "format-patch": ["-o"],
      rebase: ["-x"],
      bisect: ["run"],
      submodule: ["foreach"],
    },
  },
  npm: NPM_LIKE,
  npx: NPM_LIKE,
  pnpm: NPM_LIKE,
  yarn: NPM_LIKE,
  node: RUNTIME,
  nodejs: RUNTIME,
  bun: RUNTIME,
  deno: RUNTIME,
  python: { any: ["-c"] },
  python3: { any: ["-c"] },
  perl: { any: ["-e", "-E"] },
  ruby: { any: ["-e"] },
  find: { any: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"], singleDashWords: true },
  fd: { any: ["-x", "--exec", "-X", "--exec-batch"] },
  rg: { any: ["--pre"] },
  sed: { any: ["-i", "--in-place"] },
  sort: { any: ["-o", "--output", "--compress-program"] },
  tar: { any: ["--to-command", "--checkpoint-action", "-I", "--use-compress-program", "--rsh-command", "--rmt-command", "--info-script", "-F", "--new-volume-script"] },
  make: { any: ["-f", "--file", "--makefile", "-C", "--directory", "--eval", "-E"] },
  curl: { any: ["-o", "--output", "-O", "--remote-name", "-K", "--config", "-T", "--upload-file", "--output-dir"] },
  wget: { any: ["-O", "--output-document", "-o", "--output-file", "-P", "--directory-prefix", "-i", "--input-file", "-e", "--execute"] },
};

/** The option among `args` that writes, runs or reaches outside, as written; undefined when none. */
export function riskyOption(name: string, args: readonly string[]): string | undefined {
  const tool = TOOLS[baseName(name)];
  if (!tool) return undefined;
  let sub: string | undefined;
  for (const arg of args) {
    if (arg === "--" && tool.stopsAtDoubleDash) return undefined;
    if (sub === undefined && !arg.startsWith("-")) {
      sub = arg;
      continue;
    }
    const options = [...tool.any, ...(sub === undefined ? (tool.global ?? []) : (tool.sub?.[sub] ?? []))];
    if (options.some((option) => matches(arg, option, tool.singleDashWords === true))) return arg;
    // A subcommand word like `bisect run` is listed under its subcommand.
    if (sub !== undefined && !arg.startsWith("-") && tool.sub?.[sub]?.includes(arg)) return arg;
  }
  return undefined;
}

function matches(arg: string, option: string, singleDashWords: boolean): boolean {
  if (arg === option) return true;
  if (singleDashWords) return false;
  if (option.startsWith("--")) {
    if (!arg.startsWith("--")) return false;
    const name = arg.split("=")[0]!;
    // `--out=x`: an abbreviation of `--output`; three letters at least, as tools require some.
    return name === option || (name.length >= 5 && option.startsWith(name));
  }
  if (!option.startsWith("-") || arg.startsWith("--") || !arg.startsWith("-")) return false;
  // `-ofile` (a value joined on) and `-ni` (a cluster of single-letter flags) both hold the letter.
  const letter = option[1]!;
  return arg.slice(1).includes(letter) && /^-[A-Za-z]/.test(arg);
}

export function baseName(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}
