import * as assert from "node:assert/strict";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, exchange, kiln, setKiln, startTurn, useFakeModel, xmlCall } from "./helpers";

describe("notifications while the window is not focused", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  let told: { title: string; text: string }[];
  let listener: { dispose(): void };
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    const api = await kiln();
    restore = await useFakeModel(server);
    told = [];
    listener = api.notifications.onDidNotify((n) => told.push(n));
    api.assumeFocusForTest(false);
    api.sidebar.newTask();
  });
  afterEach(async () => {
    const api = await kiln();
    api.assumeFocusForTest(undefined);
    listener.dispose();
    api.sidebar.receive({ type: "chat/cancel" });
    await restore();
  });

  it("a finished task says so, with the first line of its result", async () => {
    const api = await kiln();
    server.enqueue({ text: "<attempt_completion>\n<result>Added the greeting test.\nAll pass.</result>\n</attempt_completion>" });
    await exchange(api.sidebar, { type: "chat/send", text: "add a test" });
    assert.deepEqual(told, [{ title: "Kiln finished", text: "Added the greeting test." }]);
  });

  it("a call waiting for approval is told once, however often its card changes", async () => {
    const api = await kiln();
    server.enqueue(xmlCall("write_to_file", { path: "notified.txt", content: "hello", line_count: 1 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "write a file");
    const card = await turn.card();
    assert.deepEqual(told, [{ title: "Kiln is waiting for your approval", text: "Kiln wants to write notified.txt" }]);
    turn.answer(card.id, false);
    await turn.done;
    assert.equal(told.filter((n) => n.title === "Kiln is waiting for your approval").length, 1);
  });

  it("a failure is told; nothing is told while the window has the focus or with the setting off", async () => {
    const api = await kiln();
    server.enqueue({ fault: { type: "http", status: 500, message: "boom" } });
    await exchange(api.sidebar, { type: "chat/send", text: "fail" });
    assert.equal(told.at(-1)?.title, "Kiln stopped on an error");
    assert.match(told.at(-1)!.text, /server error \(HTTP 500/);

    told.length = 0;
    api.assumeFocusForTest(true);
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "again, watched" });
    api.assumeFocusForTest(false);
    const off = await setKiln({ "notifications.enabled": false });
    try {
      server.enqueue({ text: COMPLETE });
      await exchange(api.sidebar, { type: "chat/send", text: "again, notifications off" });
    } finally {
      await off();
    }
    assert.deepEqual(told, []);
  });
});
