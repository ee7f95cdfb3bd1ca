/**
 * The codebase index's worker thread (bundled as dist/indexWorker.js): one CodebaseIndex (or, with a
 * team server, TeamIndex) for the root it was started with, driven by workerProtocol.ts messages from
 * WorkerCodeIndex.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CodebaseIndex } from "../../core/codeIndex/codebaseIndex";
import { createEmbedder } from "../../core/codeIndex/embedder";
import { TeamIndex } from "../../core/codeIndex/team/teamIndex";
import type { IndexReply, IndexRequest, IndexWorkerData } from "../../core/codeIndex/workerProtocol";

const port = parentPort;
if (!port) throw new Error("indexWorker.js runs as a worker thread");
const data = workerData as IndexWorkerData;
const index = data.team
  ? new TeamIndex(data.root, { connection: data.team, ...(data.storeDir && { storeDir: data.storeDir }) })
  : new CodebaseIndex(data.root, { ...(data.storeDir && { storeDir: data.storeDir }) });
const running = new Map<number, AbortController>();

const reply = (message: IndexReply) => port.postMessage(message);

port.on("message", (request: IndexRequest) => {
  if (request.op === "cancel") {
    running.get(request.target)?.abort(new Error("cancelled"));
    return;
  }
  void handle(request).then(
    (value) => reply({ id: request.id, kind: "done", value }),
    (err: unknown) => reply({ id: request.id, kind: "failed", message: err instanceof Error ? err.message : String(err) }),
  );
});

async function handle(request: Exclude<IndexRequest, { op: "cancel" }>) {
  switch (request.op) {
    case "refresh": {
      const controller = new AbortController();
      running.set(request.id, controller);
      try {
        return await index.refresh({
          signal: controller.signal,
          onProgress: (progress) => reply({ id: request.id, kind: "progress", progress }),
          ...(request.waitForVectors && { waitForVectors: true }),
        });
      } finally {
        running.delete(request.id);
      }
    }
    case "refreshPaths":
      await index.refreshPaths(request.paths);
      return null;
    case "search":
      return index.search(request.query, request.options);
    case "status":
      return index.status();
    case "clear":
      await index.clear();
      return null;
    case "setEmbedder":
      await index.setEmbedder(request.config && createEmbedder(request.config));
      return null;
    case "close":
      await index.close();
      return null;
  }
}
