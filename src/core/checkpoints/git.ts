import { execFile } from "node:child_process";

export class GitTimeout extends Error {}

export interface GitOptions {
  gitDir: string;
  workTree: string;
  /** The git process is killed after this long; the caller decides what a timeout means. */
  timeoutMs: number;
}

/**
 * Runs git on the shadow repository only: --git-dir and --work-tree are always given, and the
 * user's global config, hooks and attributes cannot change what a checkpoint stores.
 */
export function git(args: string[], options: GitOptions): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
  // Variables a parent git (a hook, a test run inside a repository) may have set would redirect us.
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES"]) delete env[name];
  const full = [
    "-c",
    "core.hooksPath=",
    "-c",
    "commit.gpgSign=false",
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.safecrlf=false",
    "-c",
    "core.quotePath=false",
    "-c",
    "user.name=Kiln",
    "-c",
    "user.email=kiln@localhost",
    `--git-dir=${options.gitDir}`,
    `--work-tree=${options.workTree}`,
    ...args,
  ];
  return new Promise((resolve, reject) => {
    execFile("git", full, { cwd: options.workTree, env, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as { killed?: boolean }).killed) return reject(new GitTimeout(`git ${args[0]} took longer than ${options.timeoutMs} ms`));
      reject(new Error(`git ${args[0]} failed: ${(stderr || err.message).trim().split("\n").slice(-3).join(" ")}`));
    });
  });
}
