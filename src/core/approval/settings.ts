/**
 * The auto-approve settings: what runs without asking. Hosts build them from their own
 * configuration (VS Code settings, CLI flags); the policy reads them and nothing else.
 */

export interface AutoApproveSettings {
  /** The global switch: off, every call that needs approval asks (a refused command stays refused). */
  enabled: boolean;
  /** `outside`: reads outside the workspace too; it extends `enabled`, it does not replace it. */
  read: { enabled: boolean; outside: boolean };
  /** Edits; `outside` and `protected` (Kiln's and the editor's configuration) extend `enabled`. */
  write: { enabled: boolean; outside: boolean; protected: boolean };
  /** Deleting files, apart from edits: an agent that may edit should not thereby wipe folders. */
  delete: boolean;
  execute: {
    enabled: boolean;
    /** Command prefixes that run without asking; "*" allows any command. */
    allowed: readonly string[];
    /** Prefixes that ask even when allowed; the longer matching prefix of the two lists wins. */
    denied: readonly string[];
    /** A denied command is refused outright, without asking (for unattended runs). */
    refuseDenied: boolean;
    /**
     * Commands run in the command sandbox (src/core/sandbox): it contains their writes and hides the
     * user's secrets, so an allowed command's redirections, risky options and paths need no question.
     */
    sandboxed?: boolean;
    /** The sandbox is turned on but cannot run here, and why: every command asks, with this as the reason. */
    sandboxUnavailable?: string;
  };
  browser: boolean;
  mcp: boolean;
  /** switch_mode */
  mode: boolean;
  /** new_task */
  subtask: boolean;
  /** update_todo_list */
  todo: boolean;
  /** After this many auto-approved calls in a task, every call asks again; 0 = no limit. */
  maxRequests: number;
  /** After the task has cost this much (USD), every call asks again; 0 = no limit. */
  maxCost: number;
}

/** What the task has used of the limits so far. */
export interface ApprovalState {
  autoApprovedRequests: number;
  /** USD; 0 when the model's price is unknown (the limit cannot be judged then). */
  costSoFar: number;
}

/** Everything asks: the safe start for a host that has not read its settings. */
export const NOTHING_AUTO_APPROVED: AutoApproveSettings = {
  enabled: true,
  read: { enabled: false, outside: false },
  write: { enabled: false, outside: false, protected: false },
  delete: false,
  execute: { enabled: false, allowed: [], denied: [], refuseDenied: false },
  browser: false,
  mcp: false,
  mode: false,
  subtask: false,
  todo: false,
  maxRequests: 0,
  maxCost: 0,
};

/**
 * The VS Code setting's default: commands that look and run no project code (`npm test` runs the
 * project's scripts and tests, which an edit can change). Their reach is held to the workspace by
 * the policy's path and option checks.
 */
export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = ["git status", "git diff", "git log", "ls", "cat", "pwd", "echo"];
export const DEFAULT_DENIED_COMMANDS: readonly string[] = ["rm -rf", "git push --force", "sudo"];

// The words live in shared: the settings panel offers the same ones.
export { APPROVE_WORDS, type ApproveWord, isApproveWord } from "../../shared/approveWords";

/** Settings from a list of category words; commands, limits and the switch come separately. */
export function settingsFromWords(
  words: Iterable<string>,
  rest: { enabled?: boolean; allowed?: readonly string[]; denied?: readonly string[]; refuseDenied?: boolean; maxRequests?: number; maxCost?: number } = {},
): AutoApproveSettings {
  const on = new Set(words);
  return {
    enabled: rest.enabled ?? true,
    read: { enabled: on.has("read"), outside: on.has("read-outside") },
    write: { enabled: on.has("edit"), outside: on.has("write-outside"), protected: on.has("write-protected") },
    delete: on.has("delete"),
    execute: { enabled: on.has("command"), allowed: rest.allowed ?? ["*"], denied: rest.denied ?? [], refuseDenied: rest.refuseDenied ?? false },
    browser: on.has("browser"),
    mcp: on.has("mcp"),
    mode: on.has("mode"),
    subtask: on.has("subtask"),
    todo: on.has("todo"),
    maxRequests: rest.maxRequests ?? 0,
    maxCost: rest.maxCost ?? 0,
  };
}

/**
 * The older group shape ({ groups, outsideWorkspace, categories }) as settings, so callers written
 * for it keep their meaning: `outsideWorkspace` opened every group to outside paths, commands had no
 * lists (any command but a destructive one ran), and deleting needed both edit and delete.
 */
export function settingsFromGroups(groups: ReadonlySet<string>, outsideWorkspace: boolean, categories: ReadonlySet<string> = new Set()): AutoApproveSettings {
  return {
    ...settingsFromWords(groups),
    read: { enabled: groups.has("read"), outside: outsideWorkspace },
    write: { enabled: groups.has("edit"), outside: outsideWorkspace, protected: false },
    delete: groups.has("edit") && categories.has("delete"),
    mode: categories.has("mode"),
    subtask: categories.has("subtask"),
    todo: categories.has("todo"),
  };
}
