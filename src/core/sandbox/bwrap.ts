/**
 * bubblewrap's command line for one sandboxed command. Pure: the mounts come from mounts.ts.
 */
import type { Mount } from "./mounts";

/**
 * Variables that name a way out of the sandbox: agents and buses that run or sign things for the
 * caller, and the display, whose clients can type into any other window. Their sockets are hidden
 * too; unset, a tool does not even try them.
 */
const CHANNEL_VARIABLES = ["SSH_AUTH_SOCK", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY"];

export interface BwrapOptions {
  mounts: readonly Mount[];
  /** Off: the command gets a network namespace of its own, with only its own loopback. */
  network: boolean;
  /** Where the command starts. */
  cwd: string;
}

/** The options before the command, in the order bubblewrap must apply them. */
export function bwrapArgs({ mounts, network, cwd }: BwrapOptions): string[] {
  const args = [
    // Everything read-only first; the mounts then open, replace or hide parts of it.
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    // A /proc of the command's own processes: Kiln's /proc/<pid>/environ (its API keys) is not there.
    "--unshare-pid",
    "--proc",
    "/proc",
    // System V shared memory and semaphores of the host's processes stay out of reach.
    "--unshare-ipc",
    ...(network ? [] : ["--unshare-net"]),
    // The command ends with whatever started it (Kiln, or the terminal's shell).
    "--die-with-parent",
    // A session of its own: no TIOCSTI, so it cannot type into the terminal it was started from.
    "--new-session",
    // Run as root (a container, CI), bubblewrap would otherwise keep every capability, remount included.
    "--cap-drop",
    "ALL",
  ];
  const hiddenFolders: string[] = [];
  for (const mount of mounts) {
    switch (mount.kind) {
      case "scratch":
        args.push("--tmpfs", mount.path);
        break;
      case "writable":
        args.push("--bind", mount.path, mount.path);
        break;
      case "read-only":
        args.push("--ro-bind", mount.path, mount.path);
        break;
      case "hidden-folder":
        args.push("--tmpfs", mount.path);
        hiddenFolders.push(mount.path);
        break;
      case "hidden-file":
        args.push("--ro-bind", "/dev/null", mount.path);
        break;
    }
  }
  // Last, once every mount point inside them exists: an empty read-only folder, not a scratch space.
  for (const path of hiddenFolders) args.push("--remount-ro", path);
  for (const name of CHANNEL_VARIABLES) args.push("--unsetenv", name);
  // The host's TMPDIR may name a folder the private /tmp does not have.
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", cwd);
  return args;
}

/** A word for a POSIX shell (sh, bash, zsh, dash, ksh): single-quoted unless plainly safe. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
