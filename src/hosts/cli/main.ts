import { Task } from "../../core/agent/Task";
import { createProvider } from "../../core/llm/createProvider";
import { apiKeyFromEnv } from "../../core/llm/keys";
import type { Logger } from "../../core/ports";
import { parseArgs, USAGE, UsageError } from "./args";

async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of process.stdin) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

const stderrLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: (m) => process.stderr.write(`kiln: ${m}\n`),
};

/** Headless host: the same Task as the extension, with the terminal as its chat view. */
async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message ? `kiln: ${err.message}\n` : ""}${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  const prompt = (args.prompt ?? (process.stdin.isTTY ? "" : await readStdin())).trim();
  if (!prompt) {
    process.stderr.write(`kiln: no prompt given\n${USAGE}\n`);
    return 2;
  }
  const config = { ...args.settings, apiKey: apiKeyFromEnv(args.settings.kind, process.env) };
  const task = new Task({ getProvider: async () => createProvider(config), logger: stderrLogger });
  let failed = false;
  task.onDidChange((event) => {
    if (event.type === "textDelta" && event.field === "text" && !args.json) process.stdout.write(event.delta);
    if (event.type === "appended") {
      if (event.item.role === "error") {
        failed = true;
        process.stderr.write(`\nkiln: ${event.item.error.message}\n`);
      }
    }
  });
  process.once("SIGINT", () => task.cancel());
  await task.send(prompt);
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ items: task.snapshot() }, null, 2)}\n`);
  } else {
    process.stdout.write("\n");
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`kiln: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
