import { readFile, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { git } from "../../mentions/git";

/**
 * Which part of a team index a workspace reads and writes: its repository (by the URL of its `origin`
 * remote, so every clone of one repository shares it whatever folder it is in) and its branch (a
 * branch's code is what its searches should find). Without a remote, the workspace's own folder on
 * this machine: nothing is shared that is not the same repository.
 */
export interface TeamScope {
  /** The key stored with every row: `<repository>#<branch>`. */
  key: string;
  repository: string;
  branch: string;
}

/** Asked of git each refresh: a branch switch changes the scope, and its index is that branch's. */
export async function teamScopeOf(root: string): Promise<TeamScope> {
  const remote = await git(root, ["config", "--get", "remote.origin.url"]).then(
    (out) => out.trim(),
    () => "",
  );
  const repository = remote ? repositoryOf(remote) : `local:${hostname()}:${resolve(root)}`;
  const branch = await git(root, ["symbolic-ref", "--quiet", "--short", "HEAD"]).then(
    (out) => out.trim(),
    // Detached (a rebase, a tag checked out, CI): the commit is what is checked out.
    () =>
      git(root, ["rev-parse", "--short=12", "HEAD"]).then(
        (out) => `detached:${out.trim()}`,
        () => "no-commits",
      ),
  );
  return { key: `${repository}#${branch}`, repository, branch };
}

/**
 * A remote's URL as a repository's name, the same for every way of spelling it: no scheme, user or
 * password, port or `.git`; `git@host:org/repo` as `host/org/repo`; the host in lower case.
 * `https://me:token@GitHub.com/org/repo.git` and `git@github.com:org/repo` are both `github.com/org/repo`.
 */
export function repositoryOf(url: string): string {
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(url);
  let host: string;
  let path: string;
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    try {
      const parsed = new URL(url);
      host = parsed.hostname;
      path = decodeURIComponent(parsed.pathname);
    } catch {
      // A local path as the remote (`git clone /srv/repo`): the path is its name.
      return url.replace(/\/+$/, "").replace(/\.git$/, "");
    }
  }
  return `${host.toLowerCase()}/${path.replace(/^\/+|\/+$/g, "").replace(/\.git$/, "")}`;
}

/**
 * A workspace's scope, asked of git only when it may have changed: every search needs it, and two git
 * processes per search cost more than the search. HEAD's text (the branch or commit checked out) and
 * the repository config's size and time (the remote) are read at each call, which costs two small
 * file reads; any change asks git again. Outside a repository, git is asked every time.
 */
export class TeamScopeWatch {
  private gitDirs: Promise<{ head: string; config: string } | undefined> | undefined;
  private cached: { key: string; scope: TeamScope } | undefined;

  constructor(private readonly root: string) {}

  async current(): Promise<TeamScope> {
    this.gitDirs ??= Promise.all([git(this.root, ["rev-parse", "--absolute-git-dir"]), git(this.root, ["rev-parse", "--path-format=absolute", "--git-common-dir"])]).then(
      ([own, common]) => ({ head: `${own.trim()}/HEAD`, config: `${common.trim()}/config` }),
      () => undefined,
    );
    const dirs = await this.gitDirs;
    if (!dirs) {
      // Not a repository (yet): asked again next time, so a `git init` is noticed.
      this.gitDirs = undefined;
      return teamScopeOf(this.root);
    }
    const [head, config] = await Promise.all([readFile(dirs.head, "utf8").catch(() => ""), stat(dirs.config).catch(() => undefined)]);
    const key = `${head}\0${config?.size ?? -1}:${config?.mtimeMs ?? -1}`;
    if (this.cached?.key !== key) this.cached = { key, scope: await teamScopeOf(this.root) };
    return this.cached.scope;
  }
}
