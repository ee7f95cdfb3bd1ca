import { execFile } from "node:child_process";

/** Enough for a sizeable change; beyond it the model gets the start and a note. */
export const GIT_MAX_CHARS = 100_000;
const GIT_TIMEOUT_MS = 10_000;

/** Why git gave nothing usable, said so the model and user understand. */
export class GitError extends Error {}

/** Runs git in `cwd`; its output, or a GitError saying why there is none. */
export function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 20 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return reject(new GitError("git is not installed or not on PATH."));
      const message = String(stderr).trim() || err.message;
      if (/not a git repository/i.test(message)) return reject(new GitError("the workspace is not a git repository."));
      reject(new GitError(message.split("\n")[0] ?? message));
    });
  });
}

function capped(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[Cut at ${maxChars} characters of ${text.length}.]`;
}

/** Uncommitted changes: status, then the diff of staged and unstaged changes against HEAD. */
export async function gitChanges(cwd: string, maxChars = GIT_MAX_CHARS): Promise<string> {
  const status = (await git(cwd, ["status", "--short"])).trimEnd();
  if (status === "") return "No uncommitted changes.";
  // A repository without commits has no HEAD to diff against: show the staged changes then.
  const hasHead = await git(cwd, ["rev-parse", "--verify", "--quiet", "HEAD"]).then(
    () => true,
    () => false,
  );
  const diff = (await git(cwd, hasHead ? ["diff", "HEAD", "--no-color", "--no-ext-diff"] : ["diff", "--cached", "--no-color", "--no-ext-diff"])).trimEnd();
  return capped(`${status}\n\n${diff || "(no diff of tracked files; the changes above are untracked files)"}`, maxChars);
}

/** A commit's message and diff. */
export async function gitCommit(cwd: string, sha: string, maxChars = GIT_MAX_CHARS): Promise<string> {
  if (!/^[0-9a-f]{7,40}$/i.test(sha)) throw new GitError(`"${sha}" is not a commit hash.`);
  try {
    await git(cwd, ["rev-parse", "--verify", "--quiet", `${sha}^{commit}`]);
  } catch (err) {
    if (err instanceof GitError && /not a git repository|not installed/.test(err.message)) throw err;
    throw new GitError(`there is no commit ${sha} in this repository.`);
  }
  const shown = await git(cwd, ["show", "--stat", "--patch", "--no-color", "--no-ext-diff", "--format=commit %H%nAuthor: %an <%ae>%nDate: %ad%n%n%B", sha]);
  return capped(shown.trimEnd(), maxChars);
}
