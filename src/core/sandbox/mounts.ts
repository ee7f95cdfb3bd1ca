/**
 * What a sandboxed command sees of the filesystem: everything read-only, the workspace writable,
 * a private /tmp, and the user's secrets hidden. Worked out from the disk at each launch (a secrets
 * folder made since the last command is hidden too); bwrap.ts turns it into bubblewrap's options.
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";

export type Mount =
  /** An empty folder of the command's own, writable, gone when it ends (/tmp). */
  | { kind: "scratch"; path: string }
  /** The host's path, writable. */
  | { kind: "writable"; path: string }
  /** The host's path, read-only (and, being a mount point, impossible to rename or delete). */
  | { kind: "read-only"; path: string }
  /** An empty folder stands in its place (tmpfs). */
  | { kind: "hidden-folder"; path: string }
  /** An empty file stands in its place (/dev/null): a file, or a socket such as an agent's. */
  | { kind: "hidden-file"; path: string };

export interface SandboxPolicy {
  /** The folder commands may write in (and what they start in unless told otherwise). */
  workspace: string;
  /** The machine's network, its loopback services included; off, the command has a loopback of its own. */
  network: boolean;
  /** Kiln's own data (task history, checkpoints, the editor's storage and secrets), hidden like the user's secrets. */
  hide?: readonly string[];
}

/** The facts about this user and machine that decide what is hidden. */
export interface HostFacts {
  /** The home folders whose secrets are hidden: HOME's, and the account's if HOME points elsewhere. */
  homes: readonly string[];
  /** The per-user runtime folder (XDG_RUNTIME_DIR): agent sockets, the session bus, container sockets. */
  runtimeDir?: string;
  /** The ssh agent's socket (SSH_AUTH_SOCK), wherever it lives. */
  sshAuthSock?: string;
}

/**
 * Where credentials live in a home folder. Hidden because a command has no business reading them,
 * and one prompt-injected command that could would send them wherever the model says.
 */
export const SECRET_HOME_PATHS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".kube",
  ".docker",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".password-store",
  ".local/share/keyrings",
  "Library/Keychains",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  // Kilo's and Kiln's own folder: task history, checkpoints, global MCP settings with their tokens.
  ".kilocode",
] as const;

/**
 * Files and folders of the workspace that take effect without anyone running them: the editor's
 * settings (Kiln's auto-approve and sandbox settings among them), Kiln's MCP servers, modes and rules,
 * git's hooks and config (the editor's git support runs git on its own, and core.fsmonitor with it).
 * Inside the sandbox they are read-only, so a command cannot turn its own writes into code run
 * outside it. The folders are made when missing (empty): a mount point is what stops a command from
 * creating one. One that is a link is protected where it leads; the link itself stays replaceable.
 */
const PROTECTED_FOLDERS = [".vscode", ".kilocode"];
const PROTECTED_IF_PRESENT = [".kilocodemodes", ".kilocodeignore", "AGENTS.md", ".kilocoderules", ".clinerules", ".roorules", ".roomodes", ".roo", ".kilo", ".claude", ".envrc", ".husky"];
const PROTECTED_IN_GIT = ["config", "modules"];

function kindOf(path: string): "folder" | "file" | undefined {
  try {
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return undefined;
  }
}

/** The path with its links resolved: a mount lands where the link leads, so that is what is named. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function depth(path: string): number {
  return path.split(sep).filter(Boolean).length;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** Makes the protected folders a command could otherwise create; where that fails, a command cannot create them either. */
export function prepareWorkspace(workspace: string): void {
  const root = real(workspace);
  const folders = PROTECTED_FOLDERS.map((name) => join(root, name));
  if (kindOf(join(root, ".git")) === "folder") folders.push(join(root, ".git", "hooks"));
  for (const folder of folders) {
    try {
      if (kindOf(folder) === undefined && !isLink(folder)) mkdirSync(folder);
    } catch {
      // A read-only or foreign-owned workspace: the command cannot make it either.
    }
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function workspaceMounts(root: string): Mount[] {
  const mounts: Mount[] = [{ kind: "writable", path: root }];
  const readOnly = (path: string) => {
    if (kindOf(path) !== undefined) mounts.push({ kind: "read-only", path: real(path) });
  };
  for (const name of [...PROTECTED_FOLDERS, ...PROTECTED_IF_PRESENT]) readOnly(join(root, name));
  try {
    for (const name of readdirSync(root)) if (name.endsWith(".code-workspace")) readOnly(join(root, name));
  } catch {
    // An unreadable workspace root lists nothing to protect; the command cannot list it either.
  }
  const git = join(root, ".git");
  const gitKind = kindOf(git);
  if (gitKind === "file") readOnly(git);
  if (gitKind === "folder") {
    // .git is a mount point of its own, writable, so it cannot be renamed away from the read-only parts below.
    mounts.push({ kind: "writable", path: real(git) });
    readOnly(join(git, "hooks"));
    for (const name of PROTECTED_IN_GIT) readOnly(join(git, name));
  }
  return mounts;
}

function hiddenMounts(policy: SandboxPolicy, host: HostFacts): Mount[] {
  const candidates = [...host.homes.flatMap((home) => SECRET_HOME_PATHS.map((p) => join(home, p))), ...(policy.hide ?? [])];
  // The session bus (and with it the keyring, systemd-run), gpg and ssh agents, rootless container sockets.
  if (host.runtimeDir) candidates.push(host.runtimeDir);
  if (host.sshAuthSock) candidates.push(host.sshAuthSock);
  const mounts: Mount[] = [];
  for (const path of candidates) {
    const kind = kindOf(path);
    if (kind === undefined) continue;
    mounts.push({ kind: kind === "folder" ? "hidden-folder" : "hidden-file", path: real(path) });
  }
  return mounts;
}

/**
 * /run holds the system's sockets: the system bus, systemd's own, container engines — ways to have
 * something outside the sandbox run a command. It is hidden whole; the one file commands need from it
 * is the resolver configuration /etc/resolv.conf often links to, which is put back.
 */
function runMounts(): Mount[] {
  if (kindOf("/run") !== "folder") return [];
  const mounts: Mount[] = [{ kind: "hidden-folder", path: "/run" }];
  const resolver = real("/etc/resolv.conf");
  if (within(resolver, "/run") && kindOf(resolver) === "file") mounts.push({ kind: "read-only", path: resolver });
  return mounts;
}

const HIDES = new Set<Mount["kind"]>(["scratch", "hidden-folder", "hidden-file"]);

/**
 * The mounts in the order bubblewrap applies them: shallower paths first, so each deeper one lands
 * on top. A secrets folder inside the workspace (a home folder opened as the workspace) stays
 * hidden; a workspace inside a hidden folder stays visible. The workspace itself is never hidden.
 */
export function planMounts(policy: SandboxPolicy, host: HostFacts): Mount[] {
  const root = real(policy.workspace);
  const hidden = hiddenMounts(policy, host).filter((m) => m.path !== root);
  // One mount per path, the first listed: a secret stays hidden in the workspace, which itself stays writable in /tmp.
  const all: Mount[] = [...hidden, ...workspaceMounts(root), { kind: "scratch", path: "/tmp" }, ...runMounts()];
  const seen = new Set<string>();
  const unique = all.filter((m) => !seen.has(m.path) && seen.add(m.path));
  const ordered = unique
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.path) - depth(b.m.path) || a.i - b.i)
    .map(({ m }) => m);
  // Hiding what an enclosing mount already hides would only make empty mount points in it.
  return ordered.filter((m, i) => {
    if (!HIDES.has(m.kind)) return true;
    const enclosing = ordered
      .slice(0, i)
      .filter((o) => o.path !== m.path && within(m.path, o.path))
      .pop();
    return enclosing === undefined || !HIDES.has(enclosing.kind);
  });
}
