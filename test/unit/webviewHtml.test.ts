import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildWebviewHtml, makeNonce } from "../../src/hosts/vscode/chat/webviewHtml";

const cspSource = "https://file+.vscode-resource.vscode-cdn.net";

describe("chat webview HTML", () => {
  const nonce = makeNonce((n) => randomBytes(n));
  const html = buildWebviewHtml({ cspSource, scriptUri: `${cspSource}/dist/webview/main.js`, styleUri: `${cspSource}/dist/webview/main.css`, nonce });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? "";

  it("has a strict CSP: nothing by default, scripts only with the nonce", () => {
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(csp).toContain("connect-src 'none'");
  });

  it("allows no origin but the extension's own resources", () => {
    const origins = csp.match(/https?:\/\/[^\s;]+/g) ?? [];
    expect(new Set(origins)).toEqual(new Set([cspSource]));
  });

  it("loads its only script with the nonce", () => {
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain(`nonce="${nonce}"`);
  });

  it("makes a fresh, URL-safe nonce each time", () => {
    const a = makeNonce((n) => randomBytes(n));
    const b = makeNonce((n) => randomBytes(n));
    expect(a).not.toEqual(b);
    expect(a).toMatch(/^[A-Za-z0-9]{16,}$/);
  });

  it("escapes attribute values", () => {
    const bad = buildWebviewHtml({ cspSource, scriptUri: 'a"><script>alert(1)</script>', styleUri: "s", nonce: "n" });
    expect(bad).not.toContain("<script>alert(1)");
  });
});
