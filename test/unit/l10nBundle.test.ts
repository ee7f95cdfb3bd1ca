import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as l10n from "@vscode/l10n";
import { afterEach, describe, expect, it } from "vitest";
import { parseL10nBundle, applyL10nBundle } from "../../src/shared/l10nBundle";
import { buildWebviewHtml } from "../../src/hosts/vscode/chat/webviewHtml";

const root = join(__dirname, "..", "..");
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8")) as Record<string, unknown>;

describe("the localisation layer", () => {
  afterEach(() => l10n.config({ contents: {} }));

  // The export reads every source file with tree-sitter: tens of seconds on a loaded machine.
  it("l10n/bundle.l10n.json holds every message the code passes to l10n.t (npm run l10n writes it)", () => {
    const out = mkdtempSync(join(tmpdir(), "kiln-l10n-"));
    try {
      execFileSync(process.execPath, [join(root, "node_modules", "@vscode", "l10n-dev", "dist", "cli.js"), "export", "--outDir", out, "./src", "./webview-ui/src"], { cwd: root, stdio: "pipe" });
      const fresh = JSON.parse(readFileSync(join(out, "bundle.l10n.json"), "utf8")) as Record<string, unknown>;
      expect(Object.keys(fresh).length).toBeGreaterThan(100);
      expect(readJson("l10n/bundle.l10n.json"), "l10n/bundle.l10n.json is stale: run npm run l10n").toEqual(fresh);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  it("every %key% in package.json is in package.nls.json, and every entry there is used", () => {
    const manifest = readFileSync(join(root, "package.json"), "utf8");
    const nls = readJson("package.nls.json");
    const used = new Set([...manifest.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]!));
    expect([...used].filter((key) => !(key in nls))).toEqual([]);
    expect(Object.keys(nls).filter((key) => !used.has(key))).toEqual([]);
    expect(Object.values(nls).every((text) => typeof text === "string" && text.trim() !== "")).toBe(true);
    // The commands a user finds in the palette keep their names.
    expect(nls["command.kiln.newTask.title"]).toBe("New Task");
  });

  it("a bundle makes l10n.t answer in its language, arguments filled in; without one the English stays", () => {
    expect(l10n.t("Retrying in {0} s (attempt {1} of {2}).", 3, 1, 4)).toBe("Retrying in 3 s (attempt 1 of 4).");
    expect(applyL10nBundle({ "Retrying in {0} s (attempt {1} of {2}).": "Neuer Versuch in {0} s ({1}. von {2})." })).toBeUndefined();
    expect(l10n.t("Retrying in {0} s (attempt {1} of {2}).", 3, 1, 4)).toBe("Neuer Versuch in 3 s (1. von 4).");
    expect(l10n.t("Not in the bundle")).toBe("Not in the bundle");
  });

  it("a bundle that is not one is refused whole, with the reason, and the English stays", () => {
    applyL10nBundle({ Send: "Senden" });
    expect(applyL10nBundle(["Send"])).toMatch(/object of message → translation/);
    expect(applyL10nBundle({ Send: "Schicken", Stop: 3 })).toBe('the translation of "Stop" is not text');
    expect(l10n.t("Send")).toBe("Senden");
    // The exported English bundle's form, a message with translators' comments, reads as its text.
    expect(parseL10nBundle({ "MCP tools/in a summary": { message: "MCP tools", comment: ["in a summary"] } })).toEqual({ bundle: { "MCP tools/in a summary": "MCP tools" } });
  });

  it("the webview page carries the display language and its bundle, escaped", () => {
    const html = buildWebviewHtml({
      cspSource: "https://x",
      scriptUri: "https://x/main.js",
      styleUri: "https://x/main.css",
      nonce: "abc",
      l10n: { language: "de", bundle: { Send: 'Senden "jetzt" <b>' } },
    });
    expect(html).toContain('<html lang="de">');
    const attribute = /data-l10n="([^"]*)"/.exec(html)?.[1] ?? "";
    expect(attribute).not.toMatch(/[<"]/);
    const decoded = attribute
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&amp;/g, "&");
    expect(JSON.parse(decoded)).toEqual({ Send: 'Senden "jetzt" <b>' });
    expect(buildWebviewHtml({ cspSource: "https://x", scriptUri: "s", styleUri: "c", nonce: "n" })).not.toContain("data-l10n");
  });
});
