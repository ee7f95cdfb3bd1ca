import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findMentions } from "../../../src/core/mentions/parse";
import { resolveMentions, type MentionContext } from "../../../src/core/mentions/resolve";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";

let root: string;
function context(extra: Partial<MentionContext> = {}): MentionContext {
  return { cwd: root, fs: new NodeFileSystem(), allowPrivateUrls: false, ...extra };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-mentions-"));
  mkdirSync(join(root, "src", "util"), { recursive: true });
  writeFileSync(join(root, "src", "a.ts"), "export const a = 1;\nexport const b = 2;\n");
  writeFileSync(join(root, "src", "util", "x.ts"), "x\n");
  writeFileSync(join(root, "secret.env"), "KEY=hunter2\n");
  writeFileSync(join(root, ".kilocodeignore"), "secret.env\n");
  writeFileSync(join(root, ".gitignore"), "build/\n");
  mkdirSync(join(root, "build"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("finding mentions in a message", () => {
  it("finds paths, folders, keywords, commits and URLs, without sentence punctuation or e-mail addresses", () => {
    const found = findMentions("Fix @/src/a.ts, see @/src/util/ and @problems. Also @terminal @git-changes @abc1234 (@https://example.com/x). mail me@example.com @/my\\ file.ts");
    expect(found.map((m) => m.text)).toEqual(["@/src/a.ts", "@/src/util/", "@problems", "@terminal", "@git-changes", "@abc1234", "@https://example.com/x", "@/my\\ file.ts"]);
    expect(found[7]).toEqual({ kind: "file", path: "my file.ts", text: "@/my\\ file.ts" });
    expect(found[1]).toEqual({ kind: "folder", path: "src/util", text: "@/src/util/" });
  });

  it("leaves a message without mentions as it is", async () => {
    expect(await resolveMentions("just a question @ noon", context())).toBe("just a question @ noon");
  });
});

describe("resolving mentions in real folders", () => {
  it("adds a mentioned file's content with line numbers after the user's text", async () => {
    const out = await resolveMentions("Explain @/src/a.ts please", context());
    expect(out.startsWith("Explain @/src/a.ts please\n\n")).toBe(true);
    expect(out).toContain('<file_content path="src/a.ts">');
    expect(out).toContain("1 | export const a = 1;");
    expect(out).toContain("2 | export const b = 2;");
    expect(out.trimEnd().endsWith("</file_content>")).toBe(true);
  });

  it("lists a mentioned folder, leaving out .gitignore'd and hidden entries", async () => {
    const out = await resolveMentions("What is in @/src/ and @/ here?", context());
    expect(out).toContain('<folder_content path="src/">\na.ts\nutil/\n</folder_content>');
    const top = await resolveMentions("see @/./", context());
    expect(top).toContain("src/");
    expect(top).not.toContain("secret.env");
    expect(top).not.toMatch(/^build\/$/m);
  });

  it("refuses a .kilocodeignore'd file with a note and never includes its content", async () => {
    const out = await resolveMentions("read @/secret.env", context());
    expect(out).toContain("hidden from Kiln by .kilocodeignore");
    expect(out).not.toContain("hunter2");
  });

  it("refuses a link to a hidden file or into a hidden folder: the link's name does not hide what it reads", async () => {
    mkdirSync(join(root, "private"));
    writeFileSync(join(root, "private", "key.txt"), "KEY=swordfish\n");
    writeFileSync(join(root, ".kilocodeignore"), "secret.env\nprivate/\n");
    symlinkSync("secret.env", join(root, "env_link"));
    symlinkSync("private", join(root, "priv_link"));
    const out = await resolveMentions("read @/env_link and @/priv_link/key.txt and @/priv_link/", context());
    expect(out).not.toContain("hunter2");
    expect(out).not.toContain("swordfish");
    expect(out).not.toContain("key.txt\n</folder_content>");
    expect(out.match(/hidden from Kiln by \.kilocodeignore/g)?.length).toBe(3);
  });

  it("says a missing file does not exist, and refuses paths outside the workspace", async () => {
    expect(await resolveMentions("@/src/nope.ts", context())).toContain("Error: src/nope.ts does not exist.");
    expect(await resolveMentions("@/../etc/passwd", context())).toContain("outside the workspace");
  });

  it("refuses a file over the size cap, saying how large it is", async () => {
    writeFileSync(join(root, "big.txt"), "y".repeat(5000));
    const out = await resolveMentions("@/big.txt", context({ maxFileBytes: 1024 }));
    expect(out).toContain("big.txt is 4.9 KB, over the 1.0 KB limit");
    expect(out).not.toContain("yyyy");
  });

  it("gives diagnostics and terminal output from the host, and says when there are none", async () => {
    const host = { problems: () => "src/a.ts:1:7 error: bad thing", terminalOutput: () => "$ npm test\n3 passing" };
    const out = await resolveMentions("@problems and @terminal", context({ host }));
    expect(out).toContain("<workspace_diagnostics>\nsrc/a.ts:1:7 error: bad thing\n</workspace_diagnostics>");
    expect(out).toContain("<terminal_output>\n$ npm test\n3 passing\n</terminal_output>");
    const none = await resolveMentions("@problems @terminal", context({ host: { problems: () => "", terminalOutput: () => undefined } }));
    expect(none).toContain("No problems detected.");
    expect(none).toContain("No terminal output yet");
  });
});
