import * as assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, exchange, kiln, promptOf, setKiln, toolCards, useFakeModel, waitFor, xmlCall } from "./helpers";

// Put together from pieces, so that secret scanners do not take this file for a leak.
const TOKEN = ["ghp_", "Q7r8A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"].join("");

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("secrets in tool results", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  // test/vscode/run.mjs starts code-server with this secret-named variable; the extension registered it at activation.
  const password = process.env.KILN_TEST_SECRET_TOKEN!;
  const file = join(workspace, "leaky.env");

  before(async () => {
    assert.ok(password && password.length >= 8, "the runner sets KILN_TEST_SECRET_TOKEN");
    server = await new FakeModelServer().start();
    writeFileSync(file, `GH=${TOKEN}\nPASS=${password}\n`);
  });
  after(async () => {
    rmSync(file, { force: true });
    await server.close();
  });
  beforeEach(async () => {
    restore = await useFakeModel(server);
    (await kiln()).sidebar.newTask();
  });
  afterEach(async () => {
    (await kiln()).sidebar.newTask();
    await restore();
  });

  async function readLeakyFile() {
    const api = await kiln();
    server.enqueue(xmlCall("read_file", { path: "leaky.env" }), { text: COMPLETE });
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "Read leaky.env" }, 30_000);
    const card = toolCards(posted).find((c) => c.name === "read_file");
    return { posted, result: card?.result ?? "", sent: promptOf(server.requests.at(-1)!).all };
  }

  it("reach the model, the chat card and task history as [redacted]: a token's shape and a secret-named variable's value", async () => {
    const api = await kiln();
    const { posted, result, sent } = await readLeakyFile();
    assert.match(result, /GH=\[redacted\]/);
    assert.match(result, /PASS=\[redacted\]/);
    assert.match(sent, /GH=\[redacted\]/);
    for (const secret of [TOKEN, password]) {
      assert.ok(!JSON.stringify(posted).includes(secret), "the webview never gets the secret");
      assert.ok(!sent.includes(secret), "the model never gets the secret");
    }
    const tasks = join(api.globalStorageUri.fsPath, "tasks");
    await waitFor("the task saved with the redacted result", () => filesUnder(tasks).some((f) => readFileSync(f, "utf8").includes("GH=[redacted]")));
    assert.deepEqual(
      filesUnder(tasks).filter((f) => readFileSync(f, "utf8").includes(TOKEN)),
      [],
    );
  });

  it("keep their shape and value with kiln.redactSecrets off", async () => {
    const undo = await setKiln({ redactSecrets: false });
    try {
      const { result, sent } = await readLeakyFile();
      assert.ok(result.includes(`GH=${TOKEN}`), result);
      assert.ok(sent.includes(password), "the variable's value reaches the model");
    } finally {
      await undo();
    }
  });
});
