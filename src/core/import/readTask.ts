import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";
import { ApiMessagesSchema, HistoryEntrySchema, UiMessagesSchema, type HistoryEntry, type SavedTask } from "../history/types";
import type { LlmMessage } from "../llm/types";
import { convertApiMessages, DamagedMessage, workspaceFromEnvironment } from "./convertApi";
import { convertUiMessages } from "./convertChat";
import { SOURCES, type SourceKind } from "./sources";
import { describeIssue, SourceApiMessagesSchema, SourceHistoryItemSchema, SourceTaskMetadataSchema, SourceUiMessagesSchema, type SourceHistoryItem, type SourceTaskMetadata } from "./sourceFormats";
import { jsonProblem } from "../files/jsonProblem";
import { withoutBom } from "./textShape";

/**
 * One task folder of the source (`tasks/<id>/`) as a Kiln history task. Both message files must be
 * there and readable; the optional ones (history_item.json, task_metadata.json) add the workspace,
 * mode and model where they recorded them, and a damaged one is noted and done without.
 */

const API_FILE = "api_conversation_history.json";
const UI_FILE = "ui_messages.json";
/** What the oldest Cline versions called the chat file. */
const OLD_UI_FILE = "claude_messages.json";
const HISTORY_ITEM_FILE = "history_item.json";
const METADATA_FILE = "task_metadata.json";
const TITLE_CHARS = 200;

export type TaskRead = { ok: true; task: SavedTask; notes: string[] } | { ok: false; reason: string };

/** Kiln's id of an imported task: the same source task always gets the same one, so a second import finds it. */
export function importedTaskId(kind: SourceKind, sourceId: string): string {
  return `${kind}-${sourceId}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80);
}

type FileRead<T> = { ok: true; value: T } | { ok: false; missing: boolean; reason: string };

async function readJson<T>(path: string, name: string, schema: z.ZodType<T>): Promise<FileRead<T>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === "ENOENT", reason: code === "ENOENT" ? `${name} is missing` : `${name} cannot be read (${code ?? String(err)})` };
  }
  let data: unknown;
  try {
    data = JSON.parse(withoutBom(text));
  } catch (err) {
    return { ok: false, missing: false, reason: `${name} is not valid JSON (${jsonProblem(err, withoutBom(text))})` };
  }
  const parsed = schema.safeParse(data);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, missing: false, reason: `${name}: ${describeIssue(parsed.error)}` };
}

/** The first line of the first thing the user wrote. */
function titleOf(ui: SavedTask["ui"], listed: SourceHistoryItem | undefined, kind: SourceKind, sourceId: string): string {
  const first = ui.find((item) => item.role === "user");
  const text = (first?.role === "user" ? first.text : "") || listed?.task || "";
  const line = text
    .split("\n")
    .map((l) => l.trim())
    .find(Boolean);
  return line ? line.slice(0, TITLE_CHARS) : `${SOURCES[kind].label} task ${sourceId}`;
}

/** Cline's two modes, as Kiln's nearest built-ins. */
const CLINE_MODES: Record<string, string> = { plan: "architect", act: "code" };

function modeOf(kind: SourceKind, listed: SourceHistoryItem | undefined, metadata: SourceTaskMetadata | undefined): string {
  if (listed?.mode) return listed.mode;
  const used = metadata?.model_usage?.at(-1)?.mode;
  if (used) return kind === "cline" ? (CLINE_MODES[used] ?? "code") : used;
  return "code";
}

function modelOf(listed: SourceHistoryItem | undefined, metadata: SourceTaskMetadata | undefined): string {
  return metadata?.model_usage?.at(-1)?.model_id || listed?.modelId || "unknown";
}

function usesNativeTools(api: readonly LlmMessage[]): boolean {
  return api.some((m) => typeof m.content !== "string" && m.content.some((b) => b.type === "tool_use" || b.type === "tool_result"));
}

/**
 * Reads and converts one task. `listed` is the task's line in the source's own list where it keeps
 * one outside the folder (Cline's state/taskHistory.json).
 */
export async function readTask(kind: SourceKind, folder: string, sourceId: string, listed?: SourceHistoryItem): Promise<TaskRead> {
  const notes: string[] = [];
  const api = await readJson(join(folder, API_FILE), API_FILE, SourceApiMessagesSchema);
  if (!api.ok) return { ok: false, reason: api.reason };
  let ui = await readJson(join(folder, UI_FILE), UI_FILE, SourceUiMessagesSchema);
  if (!ui.ok && ui.missing) {
    const old = await readJson(join(folder, OLD_UI_FILE), OLD_UI_FILE, SourceUiMessagesSchema);
    if (old.ok || !old.missing) ui = old;
  }
  if (!ui.ok) return { ok: false, reason: ui.reason };

  const optional = async <T>(name: string, schema: z.ZodType<T>): Promise<T | undefined> => {
    const read = await readJson(join(folder, name), name, schema);
    if (read.ok) return read.value;
    if (!read.missing) notes.push(`${folder}: ${read.reason}; the task is imported without it`);
    return undefined;
  };
  const item = await optional(HISTORY_ITEM_FILE, SourceHistoryItemSchema);
  const metadata = await optional(METADATA_FILE, SourceTaskMetadataSchema);
  const recorded = item ?? listed;

  let messages: LlmMessage[];
  try {
    messages = convertApiMessages(api.value, kind);
  } catch (err) {
    if (err instanceof DamagedMessage) return { ok: false, reason: `${API_FILE}: ${err.message}` };
    throw err;
  }
  const chat = convertUiMessages(ui.value, kind);
  const { totals } = chat;
  // The chat's requests are the fuller record; a chat without them falls back on the list's totals.
  const counted = totals.tokensIn + totals.tokensOut + totals.cacheRead + totals.cacheWrite > 0;
  const cost = totals.cost ?? recorded?.totalCost ?? undefined;
  const createdAt = chat.createdAt ?? recorded?.ts ?? 0;
  const entry: HistoryEntry = {
    id: importedTaskId(kind, sourceId),
    title: titleOf(chat.items, recorded, kind, sourceId),
    workspace: recorded?.workspace || recorded?.cwdOnTaskInitialization || workspaceFromEnvironment(api.value) || "",
    mode: modeOf(kind, recorded, metadata),
    model: modelOf(recorded, metadata),
    // Kiln resumes a task in the protocol it was saved with: native tool calls in the history need native tools declared.
    protocol: usesNativeTools(messages) ? "native" : "xml",
    tokensIn: counted ? totals.tokensIn : (recorded?.tokensIn ?? 0),
    tokensOut: counted ? totals.tokensOut : (recorded?.tokensOut ?? 0),
    cacheRead: counted ? totals.cacheRead : (recorded?.cacheReads ?? 0),
    cacheWrite: counted ? totals.cacheWrite : (recorded?.cacheWrites ?? 0),
    ...(cost !== undefined && cost >= 0 && { cost }),
    createdAt,
    updatedAt: chat.updatedAt ?? createdAt,
    favorite: false,
    status: chat.completed ? "completed" : "stopped",
    importedFrom: kind,
  };
  // Checked as Kiln will read it back: a task that would not load is reported now, not at resume.
  const checks = [
    { name: "the history entry", result: HistoryEntrySchema.safeParse(entry) },
    { name: UI_FILE, result: UiMessagesSchema.safeParse(chat.items) },
    { name: API_FILE, result: ApiMessagesSchema.safeParse(messages) },
  ];
  for (const { name, result } of checks) if (!result.success) return { ok: false, reason: `${name} does not convert: ${describeIssue(result.error)}` };
  return { ok: true, task: { entry, api: messages, ui: chat.items }, notes };
}
