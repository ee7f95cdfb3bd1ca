import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { isLocalHostName, NavigationGuard } from "../../../src/core/browser/navigationGuard";
import { WorkspaceIgnore } from "../../../src/core/workspace/ignore";

let root: string;
let ws: string;
const file = (path: string) => pathToFileURL(path).href;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "kiln-guard-")));
  ws = join(root, "ws");
  mkdirSync(join(ws, "site"), { recursive: true });
  writeFileSync(join(ws, "site", "index.html"), "<h1>hi</h1>");
  writeFileSync(join(ws, ".env"), "TOKEN=x");
  writeFileSync(join(ws, ".kilocodeignore"), ".env\n");
  symlinkSync(".env", join(ws, "env_link.html"));
  writeFileSync(join(root, "outside.html"), "<p>outside</p>");
});

const guard = (launched: string, allowPrivate = false) => new NavigationGuard({ cwd: ws, ignore: new WorkspaceIgnore(ws), allowPrivate, launched });

describe("NavigationGuard: file: URLs are paths", () => {
  it("loads files in the workspace", async () => {
    expect(await guard(file(join(ws, "site", "index.html"))).check(file(join(ws, "site", "index.html")))).toBeUndefined();
  });

  it("refuses files hidden by .kilocodeignore, also through a link", async () => {
    const g = guard(file(join(ws, "site", "index.html")));
    expect(await g.check(file(join(ws, ".env")))).toContain("hidden from Kiln");
    expect(await g.check(file(join(ws, "env_link.html")))).toContain("hidden from Kiln");
  });

  it("refuses files outside the workspace, unless it is the one the user approved opening", async () => {
    expect(await guard(file(join(ws, "site", "index.html"))).check("file:///etc/passwd")).toContain("outside the workspace");
    expect(await guard(file(join(ws, "site", "index.html"))).check(file(join(root, "outside.html")))).toContain("outside the workspace");
    expect(await guard(file(join(root, "outside.html"))).check(file(join(root, "outside.html")))).toBeUndefined();
    expect(await guard(file(join(root, "outside.html"))).check("file:///root/")).toContain("outside the workspace");
  });
});

describe("NavigationGuard: local addresses", () => {
  it.each([
    "http://127.0.0.1:8080/",
    "http://localhost:3000/",
    "http://app.localhost/",
    "http://[::1]:5000/",
    "http://10.0.0.5/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "ws://127.0.0.1:9229/",
  ])("blocks %s from a page opened elsewhere", async (url) => {
    expect(await guard("https://example.com/").check(url)).toContain("loopback, private or link-local");
  });

  it("lets the page reach the origin the user approved opening, and nothing else local", async () => {
    const g = guard("http://127.0.0.1:8080/app");
    expect(await g.check("http://127.0.0.1:8080/api/data")).toBeUndefined();
    expect(await g.check("ws://127.0.0.1:8080/live")).toBeUndefined();
    expect(await g.check("http://127.0.0.1:9090/admin")).toContain("127.0.0.1:9090");
  });

  it("resolves names: one that points at a private address is blocked (DNS rebinding)", async () => {
    const resolving = new NavigationGuard({
      cwd: ws,
      ignore: new WorkspaceIgnore(ws),
      allowPrivate: false,
      launched: "https://example.com/",
      resolve: async (host) => (host === "rebind.example" ? ["10.1.2.3"] : ["93.184.216.34"]),
    });
    expect(await resolving.check("http://rebind.example/")).toContain("it resolves to 10.1.2.3");
    expect(await resolving.check("https://example.org/")).toBeUndefined();
    expect(await guard("https://example.com/").check("http://localhost./")).toContain("loopback");
  });

  it("allows everything local with the setting on", async () => {
    expect(await guard("https://example.com/", true).check("http://127.0.0.1:9090/admin")).toBeUndefined();
  });

  it("refuses schemes other than http(s), ws(s), file, about, data and blob", async () => {
    expect(await guard("https://example.com/").check("chrome://settings")).toContain("chrome:");
    expect(await guard("https://example.com/").check("data:text/html,hi")).toBeUndefined();
  });

  it.each([
    ["localhost", true],
    ["LOCALHOST", true],
    ["127.1.2.3", true],
    ["[::1]", true],
    ["example.com", false],
    ["8.8.8.8", false],
  ])("isLocalHostName(%s) is %s", (host, expected) => {
    expect(isLocalHostName(host)).toBe(expected);
  });
});
