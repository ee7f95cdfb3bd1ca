/**
 * Whether the command sandbox can run on this machine: Linux, with bubblewrap (`bwrap`) installed and
 * allowed to create the namespaces it needs. Checked once per bwrap path and remembered, since the
 * answer does not change while Kiln runs and the policy asks for it at every command.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export type SandboxSupport = { available: true; bwrap: string } | { available: false; reason: string };

/**
 * Names the bwrap to use instead of the one on PATH. The tests point it at a missing file to see the
 * unavailable case; it also serves a bwrap installed somewhere unusual.
 */
export const BWRAP_ENV = "KILN_SANDBOX_BWRAP";

/** A probe that takes longer than this is as good as failed: every command would wait as long. */
const PROBE_TIMEOUT_MS = 5_000;

const checked = new Map<string, SandboxSupport>();

export interface SupportOptions {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
}

/** Where this machine stands; the probe runs at most once per bwrap path. */
export function sandboxSupport(options: SupportOptions = {}): SandboxSupport {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") {
    const name = platform === "darwin" ? "macOS" : platform === "win32" ? "Windows" : platform;
    return { available: false, reason: `it uses bubblewrap, which runs only on Linux, and this is ${name}` };
  }
  const env = options.env ?? process.env;
  const named = env[BWRAP_ENV];
  const bwrap = named ? (isAbsolute(named) ? named : undefined) : onPath("bwrap", env.PATH ?? "");
  if (named && !bwrap) return { available: false, reason: `${BWRAP_ENV} must be an absolute path (it is "${named}")` };
  if (!bwrap) return { available: false, reason: "bubblewrap (bwrap) is not installed or not on PATH (Debian and Ubuntu: apt-get install bubblewrap)" };
  let support = checked.get(bwrap);
  if (!support) {
    support = probe(bwrap);
    checked.set(bwrap, support);
  }
  return support;
}

function onPath(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** Runs `true` with the namespaces every sandboxed command uses: a kernel or container that forbids them fails here, not later. */
function probe(bwrap: string): SandboxSupport {
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--tmpfs",
    "/tmp",
    "--",
    "true",
  ];
  const result = spawnSync(bwrap, args, { encoding: "utf8", timeout: PROBE_TIMEOUT_MS, stdio: ["ignore", "ignore", "pipe"] });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { available: false, reason: `bubblewrap was not found at ${bwrap}` };
    if (code === "ETIMEDOUT") return { available: false, reason: `bubblewrap (${bwrap}) did not start a sandbox within ${PROBE_TIMEOUT_MS / 1000} s` };
    return { available: false, reason: `bubblewrap (${bwrap}) could not be started: ${result.error.message}` };
  }
  if (result.status !== 0) {
    const said = (result.stderr ?? "").trim().split("\n")[0] || `exit code ${result.status ?? result.signal}`;
    return { available: false, reason: `bubblewrap (${bwrap}) cannot create its namespaces here (${said}); unprivileged user namespaces may be turned off` };
  }
  return { available: true, bwrap };
}
