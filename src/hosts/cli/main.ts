import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir, type } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_RETRY } from "../../core/agent/retry";
import { Task, type TaskEvent, type TaskStatus } from "../../core/agent/Task";
import { formatUsd } from "../../core/llm/models";
import { formatTodos } from "../../core/tools/todoList";
import { createInterface } from "node:readline/promises";
import { createToolbox } from "../../core/agent/toolbox";
import { createPuppeteerSession } from "../../core/browser/puppeteerSession";
import { createProvider } from "../../core/llm/createProvider";
import { keyEnvNames } from "../../core/llm/keys";
import { redactSecrets, registerSecretEnvironment } from "../../core/llm/redact";
import { takeApiKey } from "./apiKey";
import { findMode } from "../../core/modes/modes";
import { loadModes } from "../../core/modes/customModes";
import type { Logger } from "../../core/ports";
import { NodeFileSystem } from "../../platform/node/nodeFileSystem";
import { createNodeTerminal } from "../../platform/node/nodeTerminal";
import { createDefaultRegistry } from "../../core/tools/registry";
import { createRulesSource } from "../../core/rules/rulesPrompt";
import { createSkillsSource } from "../../core/skills/skills";
import { homeOf, parseFlags, UsageError, type CliArgs } from "./args";
import { USAGE } from "./usage";
import { applyConfig, ConfigError, loadConfig } from "./configFile";
import { TerminalApprovals } from "./terminalApprovals";
import type { McpHub } from "../../core/mcp/McpHub";
import { createCliHub, startMcpServers } from "./mcp";
import { askYesNo, FileMcpTrustStore } from "./mcpApprovals";
import { loadSaved, printHistory, providerForResume, recordTask } from "./history";
import { printModels } from "./models";
import { cliCodeIndex, embedderKey, runIndexCommand } from "./indexCommand";
import { runImportCommand } from "./importCommand";
import { identityFor } from "../../core/agent/taskRecord";
import type { SavedTask } from "../../core/history/types";
import { cliCheckpoints, printCheckpoint, restoreCheckpoint } from "./checkpoints";
import { cliSandbox } from "./sandbox";
import { formatToolCall, formatToolStart } from "./toolLines";

async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of process.stdin) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/** What the CLI prints goes through these: a key echoed in a result or an error is shown as [redacted]. */
const print = (text: string) => process.stdout.write(redactSecrets(text));
const printErr = (text: string) => process.stderr.write(redactSecrets(text));

const stderrLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: (m) => printErr(`kiln: ${m}\n`),
};

const EXIT: Record<TaskStatus, number> = { completed: 0, idle: 0, running: 1, failed: 1, stopped: 3, answering: 3 };

/** Where results too long for the context are kept, so the model can page through them. */
function overflowSaver(): (toolName: string, text: string) => Promise<string> {
  let dir: string | undefined;
  let n = 0;
  return async (toolName, text) => {
    dir ??= mkdtempSync(join(tmpdir(), "kiln-task-"));
    const file = join(dir, `${toolName}-${++n}.txt`);
    writeFileSync(file, redactSecrets(text));
    return file;
  };
}

function makeTask(args: CliArgs, apiKey: string | undefined, mcp: McpHub | undefined, saved: SavedTask | undefined): Task {
  const config = { ...args.settings, apiKey, timeouts: { firstReplyMs: args.firstReplyTimeout * 1000, idleMs: args.idleTimeout * 1000 } };
  const getProvider = async () => createProvider(config);
  const retry = { ...DEFAULT_RETRY, maxRetries: args.retries };
  // The flags' condensing and budgets (contextArgs.ts), and the model's window and prices from --model-info.
  const limits = { context: { settings: () => args.context }, modelOverrides: () => args.modelInfo, replyLimits: () => args.replyLimits };
  if (args.command === "chat") return new Task({ getProvider, logger: stderrLogger, retry, ...limits });
  const workspace = resolve(args.workspace);
  // The global file holds the modes `kiln import` brought over; the project's own win over it.
  const loaded = loadModes(workspace, args.globalModesFile);
  for (const error of loaded.errors) printErr(`kiln: ${error}\n`);
  let mode = findMode(args.mode, loaded.modes);
  // A resumed task whose mode is gone (an imported task's custom mode, a deleted one) goes on in Code, and says so.
  if (!mode && saved && saved.entry.mode === args.mode) {
    printErr(`kiln: the task's mode "${args.mode}" is not defined here; it goes on in code mode\n`);
    mode = findMode("code", loaded.modes);
  }
  if (!mode) throw new UsageError(`--mode: no mode "${args.mode}" (use ${loaded.modes.map((m) => m.slug).join(", ")})`);
  const sandbox = cliSandbox(args, workspace, (line) => printErr(`kiln: ${line}\n`));
  const toolbox = createToolbox({
    registry: createDefaultRegistry(),
    mode,
    approvals: new TerminalApprovals(Boolean(process.stdin.isTTY)),
    autoApprove: sandbox.autoApprove,
    cwd: workspace,
    modes: loaded.modes,
    fuzzyThreshold: () => args.fuzzyThreshold,
    readFileMaxLines: () => args.readFileMaxLines,
    toolResultMaxChars: () => args.toolResultMaxChars,
    outputMaxChars: () => args.outputMaxChars,
    allowPrivateUrls: () => args.allowPrivateUrls === true,
    redactSecrets: () => args.noRedact !== true,
    // The same loader as the extension, read for each request; a problem is said once on stderr.
    rules: createRulesSource({
      where: { workspace, globalDir: resolve(args.globalRules ?? join(homeOf(process.env), ".kilocode", "rules")) },
      report: (problem) => printErr(`kiln: ${problem}\n`),
    }),
    // Skills likewise: the project's .kilocode/skills (and .claude/, .roo/), and ~/.kilocode/skills.
    skills: createSkillsSource({
      where: { workspace, globalDir: join(homeOf(process.env), ".kilocode", "skills") },
      report: (problem) => printErr(`kiln: ${problem}\n`),
    }),
    fs: new NodeFileSystem(),
    ...(mcp ? { mcp } : {}),
    os: type(),
    maxRequests: args.maxRequests,
    saveOverflow: overflowSaver(),
    // Commands start from this process's environment without Kiln's keys; long output is logged to a temp folder.
    // With --sandbox, each command runs inside it (src/core/sandbox).
    terminal: createNodeTerminal({ logDir: () => mkdtempSync(join(tmpdir(), "kiln-commands-")), sandbox: sandbox.launch }),
    // The browser is found at launch: CHROME_PATH / PUPPETEER_EXECUTABLE_PATH, else the usual places.
    browser: () => createPuppeteerSession({ logger: stderrLogger }),
    checkpoints: cliCheckpoints(args, workspace, stderrLogger),
    // Read from --index-dir (or built) on codebase_search's first call, brought up to date at each, saved after.
    ...(!args.noIndex && { codeIndex: cliCodeIndex(args, workspace) }),
  });
  const identity = identityFor(saved, workspace);
  return new Task({ getProvider, logger: stderrLogger, toolbox, protocol: args.protocol, retry, identity, ...limits, ...(saved && { restored: saved }) });
}

async function askOnTerminal(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

function describeUsage(event: Extract<TaskEvent, { type: "usage" }>): string {
  const { total, totalCost } = event;
  const cache = total.cacheReadTokens || total.cacheWriteTokens ? `, cache ${total.cacheReadTokens} read / ${total.cacheWriteTokens} written` : "";
  const cost = totalCost === undefined ? "" : `, ${formatUsd(totalCost)}`;
  return `tokens ${total.inputTokens} in, ${total.outputTokens} out${cache}${cost}`;
}

/** Headless host: the same Task as the extension, with the terminal as its chat view. */
async function main(): Promise<number> {
  let args: CliArgs;
  let task: Task;
  let hub: McpHub | undefined;
  let apiKey: string | undefined;
  let mcpVars: NodeJS.ProcessEnv = process.env;
  try {
    // Before anything runs: a command that prints $DB_PASSWORD sends the model [redacted] (unless --no-redact).
    registerSecretEnvironment(process.env);
    // The AWS SDK warns on stderr that it prefers Node 22; Kiln supports Node 20, and the line would only confuse.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
    args = parseFlags(process.argv.slice(2), process.env, process.cwd());
    // The config files are read and checked before anything runs: a broken one stops here (exit 2).
    const config = loadConfig(args, process.env);
    // `${env:NAME}` in an MCP config may name the key on purpose; that is the one way it reaches a server.
    mcpVars = { ...process.env };
    // Read before the key is taken (it starts nothing): a resumed task's provider says which key.
    const saved = args.command === "resume" ? await loadSaved(args).catch((err: Error) => err) : undefined;
    // Flags and KILN_* win over the profile, the profile over the files' defaults (configFile.ts).
    applyConfig(args, config, saved && !(saved instanceof Error) ? saved.entry : undefined);
    if (saved && !(saved instanceof Error)) providerForResume(args, saved.entry);
    // The embedder's key too, read before the keys are taken from the environment.
    if (args.embedder) args.embedder.apiKey = embedderKey(args.embedder.kind, process.env);
    // From here on no child of this process sees the key.
    apiKey = takeApiKey(args.apiKeyEnv ? [args.apiKeyEnv] : keyEnvNames(args.settings.kind));
    if (saved instanceof Error) {
      printErr(`kiln: ${saved.message}\n`);
      return 1;
    }
    if (args.command === "history") return await printHistory(args, print);
    if (args.command === "restore-checkpoint") return await restoreCheckpoint(args, print);
    if (args.command === "models") return await printModels(args, apiKey, print, printErr);
    if (args.command === "index") return await runIndexCommand(args, print, printErr);
    if (args.command === "import") return await runImportCommand(args, print, printErr);
    // A resumed task goes on where and how it ran.
    if (saved) Object.assign(args, { mode: saved.entry.mode, protocol: saved.entry.protocol, ...(!args.workspaceGiven && { workspace: saved.entry.workspace }) });
    // Made before the task, started after it: a usage error leaves no server running.
    hub = args.command === "chat" ? undefined : createCliHub(resolve(args.workspace), stderrLogger);
    task = makeTask(args, apiKey, hub, saved);
  } catch (err) {
    // A config file's problems, each naming its file and field, are clearer without the usage text.
    if (err instanceof ConfigError) {
      printErr(err.problems.map((problem) => `kiln: ${problem}\n`).join(""));
      return 2;
    }
    if (err instanceof UsageError) {
      printErr(`${err.message ? `kiln: ${err.message}\n` : ""}${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  let interrupted = false;
  // Ctrl+C stops the run cleanly from here on, also while MCP servers start (they are closed below); so do
  // `kill` and a closed terminal, which would otherwise end the CLI at once and leave its commands running.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      interrupted = true;
      task.cancel();
    });
  }
  try {
    if (hub) {
      const report = (line: string) => printErr(`kiln: ${line}\n`);
      // A project's servers start when allowed: remembered, asked here at a terminal, or --trust-project-mcp.
      const gate = { store: await FileMcpTrustStore.load(args.mcpApprovals, report), trustAll: args.trustProjectMcp === true, ...(process.stdin.isTTY && { ask: askYesNo }) };
      // Without --mcp-config, the default global file (where `kiln import` puts servers) is read if it exists.
      await startMcpServers(hub, resolve(args.workspace), args.mcpConfig ?? args.globalMcpFile, report, mcpVars, gate);
    }
    if (interrupted) return EXIT.stopped;
    return await runTask(args, task);
  } finally {
    // Server processes would keep the CLI alive.
    await hub?.dispose();
  }
}

async function runTask(args: CliArgs, task: Task): Promise<number> {
  const prompt = (args.prompt ?? (process.stdin.isTTY || args.command === "resume" ? "" : await readStdin())).trim();
  if (!prompt && args.command !== "resume") {
    printErr(`kiln: no task given\n${USAGE}\n`);
    return 2;
  }
  if (!prompt && task.status !== "stopped" && task.status !== "failed") {
    printErr(`kiln: the task is ${task.status === "answering" ? "waiting for an answer" : task.status}; give a message to go on with it\n`);
    return 2;
  }
  const flush = args.command === "chat" ? async () => {} : recordTask(args, task, stderrLogger);
  const id = task.saved()?.entry.id;
  if (id && args.historyDir) {
    if (args.json) print(`${JSON.stringify({ type: "task", id })}\n`);
    else printErr(`[task ${id}: kiln resume ${id} goes on with it]\n`);
  }
  task.onDidChange((event) => {
    printCheckpoint(event, args.json);
    if (args.json) {
      print(`${JSON.stringify(event)}\n`);
      return;
    }
    if (event.type === "textDelta" && event.field === "text") print(event.delta);
    if (event.type === "todos") printErr(`\n${formatTodos(event.todos)}\n`);
    if (event.type === "mode") printErr(`\n[mode: ${event.mode}]\n`);
    if (event.type === "retrying") {
      printErr(`\nkiln: ${event.reason}\nkiln: retrying in ${(event.delayMs / 1000).toFixed(1)} s (${event.attempt} of ${event.of})\n`);
    }
    if (event.type === "appended") {
      const item = event.item;
      if (item.role === "assistant") print(item.text);
      if (item.role === "error") printErr(`\nkiln: ${item.error.message}\n`);
      // A call the task starts itself (condensing) runs at once: no later line says what it is doing.
      if (item.role === "tool" && item.status === "running") printErr(`\n${formatToolStart(item)}\n`);
      if (item.role === "question") print(`\n? ${item.question}${item.suggestions.map((s) => `\n  - ${s.text}`).join("")}\n`);
      if (item.role === "completion") print(`\n✓ ${item.result}\n`);
    }
    if (event.type === "itemChanged" && event.item.role === "tool" && (event.item.status === "done" || event.item.status === "denied" || event.item.status === "error")) {
      printErr(`\n${formatToolCall(event.item)}\n`);
    }
  });
  let usage: Extract<TaskEvent, { type: "usage" }> | undefined;
  task.onDidChange((event) => {
    if (event.type === "usage") usage = event;
  });
  // A subtask's question arrives while the task still runs: answer it at the terminal, or stop.
  task.onDidChange((event) => {
    if (event.type !== "appended" || event.item.role !== "question") return;
    setImmediate(() => {
      if (!task.busy || !task.acceptsInput) return;
      if (!process.stdin.isTTY) {
        printErr("kiln: a subtask asks a question and there is no terminal to answer it; stopping.\n");
        task.cancel();
        return;
      }
      void askOnTerminal("Your answer (empty to stop): ").then((answer) => (answer ? task.send(answer) : task.cancel()));
    });
  });
  await (prompt ? task.send(prompt) : task.resume());
  // With a person at the terminal, a question is answered there and the task goes on.
  while (task.status === "answering" && process.stdin.isTTY) {
    const answer = await askOnTerminal("Your answer (empty to stop): ");
    if (!answer) break;
    await task.send(answer);
  }
  if (!args.json) {
    print("\n");
    if (usage) printErr(`[${describeUsage(usage)}]\n`);
  }
  await flush();
  // Closes what the task left open (a browser the model did not close would keep the process alive).
  task.dispose();
  return args.command === "chat" ? (task.status === "idle" ? 0 : 1) : EXIT[task.status];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    printErr(`kiln: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
