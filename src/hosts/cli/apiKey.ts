import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { ALL_KEY_ENVS } from "../../core/llm/keys";
import { registerSecret } from "../../core/llm/redact";

/**
 * Takes the API key out of this process's environment: read once, then deleted from process.env, so
 * nothing the CLI starts (commands, MCP servers, git, the browser) inherits it, whatever the variable
 * is called (`--api-key-env MY_LLM_SECRET`). The standard key variables go too, used or not. Every
 * value taken is redacted from what the CLI prints, saves and sends from then on.
 */
export function takeApiKey(names: readonly string[]): string | undefined {
  const key = names.map((name) => process.env[name]?.trim()).find(Boolean) || undefined;
  for (const taken of new Set([...names, ...ALL_KEY_ENVS])) {
    registerSecret(process.env[taken]);
    delete process.env[taken];
    hideFromInitialEnviron(taken);
  }
  return key;
}

/**
 * On Linux a command can still read the CLI's environment as it started, `/proc/$PPID/environ`: the
 * kernel shows the bytes at the process's initial environment block, which `delete process.env.X`
 * does not touch (libc only drops its pointer). The process may write its own memory through
 * /proc/self/mem, so the value's bytes are overwritten with `*` in place; the entry keeps its length,
 * and no one reads those bytes once the variable is deleted. Best effort: elsewhere, or where the
 * kernel refuses the write, the environment block stays as it was.
 */
function hideFromInitialEnviron(name: string): void {
  if (process.platform !== "linux") return;
  let mem: number | undefined;
  try {
    const block = environBlock();
    if (!block) return;
    mem = openSync("/proc/self/mem", "r+");
    const bytes = Buffer.alloc(block.end - block.start);
    const read = readSync(mem, bytes, 0, bytes.length, block.start);
    const prefix = Buffer.from(`${name}=`);
    for (let at = 0; at < read;) {
      const nul = bytes.indexOf(0, at);
      const end = nul === -1 || nul > read ? read : nul;
      if (end - at > prefix.length && bytes.subarray(at, at + prefix.length).equals(prefix)) {
        const valueStart = at + prefix.length;
        writeSync(mem, Buffer.alloc(end - valueStart, "*"), 0, end - valueStart, block.start + valueStart);
      }
      at = end + 1;
    }
  } catch {
    // No /proc, or a kernel that refuses: nothing more to do from Node.
  } finally {
    if (mem !== undefined) closeSync(mem);
  }
}

/** Where the kernel keeps this process's initial environment: fields 50 and 51 of /proc/self/stat. */
function environBlock(): { start: number; end: number } | undefined {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The command name (field 2) is in parentheses and may hold spaces; count from after it (field 3).
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .trim()
    .split(" ");
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && end > start ? { start, end } : undefined;
}
