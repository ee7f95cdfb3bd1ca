/**
 * What the sandbox mounts where, worked out on real folders (no bwrap runs here; the integration
 * test runs it), and bubblewrap's options in the order they must come.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bwrapArgs, shellQuote } from "../../../src/core/sandbox/bwrap";
import { planMounts, prepareWorkspace, type Mount } from "../../../src/core/sandbox/mounts";
import { commandLine, sandboxApproval } from "../../../src/core/sandbox";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Outside /tmp, which the sandbox replaces: a home there would be covered by /tmp's mount. */
function fakeMachine() {
  const root = mkdtempSync("/var/tmp/kiln-mounts-");
  made.push(root);
  const home = join(root, "home");
  const workspace = join(root, "ws");
  for (const dir of [join(home, ".ssh"), join(home, ".config", "gcloud"), join(home, ".kilocode"), workspace]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, ".netrc"), "machine x password y\n");
  return { root, home, workspace };
}

const at = (mounts: Mount[], path: string) => mounts.find((m) => m.path === path)?.kind;
const order = (mounts: Mount[], path: string) => mounts.findIndex((m) => m.path === path);

describe("planMounts", () => {
  it("makes the workspace writable, /tmp private, and hides the secrets that exist", () => {
    const { home, workspace } = fakeMachine();
    const mounts = planMounts({ workspace, network: false }, { homes: [home] });
    expect(at(mounts, workspace)).toBe("writable");
    expect(at(mounts, "/tmp")).toBe("scratch");
    expect(at(mounts, join(home, ".ssh"))).toBe("hidden-folder");
    expect(at(mounts, join(home, ".config", "gcloud"))).toBe("hidden-folder");
    expect(at(mounts, join(home, ".kilocode"))).toBe("hidden-folder");
    // A file is hidden by a file.
    expect(at(mounts, join(home, ".netrc"))).toBe("hidden-file");
    // Missing ones are not mounted (nothing to hide).
    expect(at(mounts, join(home, ".aws"))).toBeUndefined();
  });

  it("hides the folders the host names (Kiln's data) and the agent socket", () => {
    const { root, home, workspace } = fakeMachine();
    const data = join(root, "kiln-data");
    mkdirSync(data);
    const sock = join(root, "agent.sock");
    writeFileSync(sock, "");
    const mounts = planMounts({ workspace, network: false, hide: [data] }, { homes: [home], sshAuthSock: sock });
    expect(at(mounts, data)).toBe("hidden-folder");
    expect(at(mounts, sock)).toBe("hidden-file");
  });

  it("a home folder opened as the workspace: writable, with its secrets still hidden on top", () => {
    const { home } = fakeMachine();
    const mounts = planMounts({ workspace: home, network: false }, { homes: [home] });
    expect(at(mounts, home)).toBe("writable");
    expect(at(mounts, join(home, ".ssh"))).toBe("hidden-folder");
    expect(order(mounts, home)).toBeLessThan(order(mounts, join(home, ".ssh")));
  });

  it("a workspace inside a hidden folder stays visible, mounted after it", () => {
    const { home } = fakeMachine();
    const workspace = join(home, ".kilocode", "project");
    mkdirSync(workspace);
    const mounts = planMounts({ workspace, network: false }, { homes: [home] });
    expect(order(mounts, join(home, ".kilocode"))).toBeLessThan(order(mounts, workspace));
    expect(at(mounts, workspace)).toBe("writable");
  });

  it("drops a hide that an enclosing hidden folder already covers (a home under /tmp)", () => {
    const home = mkdtempSync("/tmp/kiln-mounts-home-");
    made.push(home);
    mkdirSync(join(home, ".ssh"));
    const { workspace } = fakeMachine();
    const mounts = planMounts({ workspace, network: false }, { homes: [home] });
    expect(at(mounts, join(home, ".ssh"))).toBeUndefined();
  });

  it("protects git's hooks, config and modules, the editor's and Kiln's folders; .git itself is a writable mount point", () => {
    const { workspace } = fakeMachine();
    mkdirSync(join(workspace, ".git"));
    writeFileSync(join(workspace, ".git", "config"), "[core]\n");
    writeFileSync(join(workspace, "AGENTS.md"), "rules\n");
    writeFileSync(join(workspace, "app.code-workspace"), "{}\n");
    prepareWorkspace(workspace);
    const mounts = planMounts({ workspace, network: false }, { homes: ["/nonexistent-home"] });
    expect(at(mounts, join(workspace, ".git"))).toBe("writable");
    for (const path of [".git/hooks", ".git/config", ".vscode", ".kilocode", "AGENTS.md", "app.code-workspace"]) expect(at(mounts, join(workspace, path)), path).toBe("read-only");
    expect(order(mounts, join(workspace, ".git"))).toBeLessThan(order(mounts, join(workspace, ".git", "hooks")));
  });
});

describe("bwrapArgs", () => {
  const mounts: Mount[] = [
    { kind: "scratch", path: "/tmp" },
    { kind: "hidden-folder", path: "/run" },
    { kind: "writable", path: "/w" },
    { kind: "read-only", path: "/w/.vscode" },
    { kind: "hidden-folder", path: "/h/.ssh" },
    { kind: "hidden-file", path: "/h/.netrc" },
  ];

  it("starts read-only with its own /proc and process ids, drops capabilities and leaves with its parent", () => {
    const args = bwrapArgs({ mounts, network: false, cwd: "/w/sub" });
    expect(args.slice(0, 3)).toEqual(["--ro-bind", "/", "/"]);
    for (const option of ["--unshare-pid", "--unshare-net", "--die-with-parent", "--new-session"]) expect(args).toContain(option);
    expect(args.join(" ")).toContain("--cap-drop ALL");
    expect(args.indexOf("--unshare-pid")).toBeLessThan(args.indexOf("--proc"));
    expect(args.slice(-2)).toEqual(["--chdir", "/w/sub"]);
  });

  it("maps each mount, and makes hidden folders read-only only after every mount", () => {
    const line = bwrapArgs({ mounts, network: false, cwd: "/w" }).join(" ");
    expect(line).toContain("--tmpfs /tmp --tmpfs /run --bind /w /w --ro-bind /w/.vscode /w/.vscode --tmpfs /h/.ssh --ro-bind /dev/null /h/.netrc --remount-ro /run --remount-ro /h/.ssh");
    expect(line).not.toContain("--remount-ro /tmp");
  });

  it("keeps the network only when allowed", () => {
    expect(bwrapArgs({ mounts, network: true, cwd: "/w" })).not.toContain("--unshare-net");
  });

  it("unsets the variables naming agents, buses and the display", () => {
    const line = bwrapArgs({ mounts, network: false, cwd: "/w" }).join(" ");
    for (const name of ["SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY"]) expect(line).toContain(`--unsetenv ${name}`);
  });
});

describe("a command line for a terminal's shell", () => {
  it("quotes each word so the shell passes it unchanged", () => {
    expect(shellQuote("--bind")).toBe("--bind");
    expect(shellQuote("/a b/c")).toBe("'/a b/c'");
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(commandLine({ file: "/usr/bin/bwrap", args: ["--", "/bin/sh", "-c", "echo 'hi' && ls"] })).toBe(`/usr/bin/bwrap -- /bin/sh -c 'echo '\\''hi'\\'' && ls'`);
  });
});

describe("sandboxApproval", () => {
  it("tells the policy what the sandbox state means", () => {
    expect(sandboxApproval({ kind: "off" })).toEqual({ sandboxed: false });
    expect(sandboxApproval({ kind: "on", sandbox: { description: "", wrap: () => ({ file: "", args: [] }) } })).toEqual({ sandboxed: true });
    expect(sandboxApproval({ kind: "unavailable", reason: "no bwrap" })).toEqual({
      sandboxed: false,
      sandboxUnavailable: "The command sandbox is on but not available here: no bwrap. Approving runs this command without it.",
    });
  });
});
