import { promises as fs } from "node:fs";
import { join } from "node:path";
import { lock } from "proper-lockfile";
import type { z } from "zod";
import { redactDeep } from "../llm/redact";
import type { FileSystem } from "../ports/fileSystem";
import { ApiMessagesSchema, HistoryEntrySchema, IndexSchema, MetadataSchema, ResumeStateSchema, UiMessagesSchema, type HistoryEntry, type HistoryIndex, type SavedTask } from "./types";

const INDEX = "index.json";
const API = "api_conversation_history.json";
const UI = "ui_messages.json";
const META = "task_metadata.json";

export interface HistoryList {
  entries: HistoryEntry[];
  /** Files that could not be read; each was moved aside (never deleted) and named here. */
  problems: string[];
}

/**
 * Task history on disk: one folder per task (the API conversation, the chat, the metadata) and an
 * index for the list. Every write is temp file + rename. The index is changed under a lock file,
 * because two VS Code windows share this folder and each adds its own tasks.
 */
export class HistoryStore {
  /** One index change at a time in this process; the lock file orders it with other processes. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Deleted here: a late save of the task (its chat closing) must not bring it back. */
  private readonly deleted = new Set<string>();

  /** `files` writes each file atomically (the hosts pass the Node platform's). */
  constructor(
    readonly root: string,
    private readonly files: FileSystem,
  ) {}

  private get indexPath(): string {
    return join(this.root, INDEX);
  }

  folderOf(id: string): string {
    HistoryEntrySchema.shape.id.parse(id);
    return join(this.root, id);
  }

  /** Saves the task's files, then its line in the index. */
  async save(saved: SavedTask): Promise<void> {
    // History files outlive the task and get shared or synced: a key that reached the chat stays out of them.
    const task = redactDeep(saved);
    const entry = HistoryEntrySchema.parse(task.entry);
    if (this.deleted.has(entry.id)) return;
    const folder = this.folderOf(entry.id);
    await this.files.writeFile(join(folder, API), JSON.stringify(task.api));
    await this.files.writeFile(join(folder, UI), JSON.stringify(task.ui));
    const resume = task.resume && ResumeStateSchema.parse(task.resume);
    await this.files.writeFile(join(folder, META), JSON.stringify({ ...entry, ...(resume && { resume }) }));
    await this.changeIndex((tasks) => {
      // Deleted while its files were being written: leave it out, and its folder goes below.
      if (this.deleted.has(entry.id)) return tasks;
      const kept = tasks.find((t) => t.id === entry.id);
      // Favourite is the user's choice in the list; a save from the running task does not undo it.
      const merged = kept ? { ...entry, favorite: kept.favorite } : entry;
      return [...tasks.filter((t) => t.id !== entry.id), merged];
    });
    if (this.deleted.has(entry.id)) await fs.rm(folder, { recursive: true, force: true });
  }

  async list(): Promise<HistoryList> {
    const problems: string[] = [];
    const index = await this.readIndex(problems);
    return { entries: [...index.tasks].sort((a, b) => b.updatedAt - a.updatedAt), problems };
  }

  /** A saved task, whole; a damaged file is moved aside and the error says where it went. */
  async load(id: string): Promise<SavedTask> {
    const folder = this.folderOf(id);
    const { resume, ...entry } = await this.readChecked(join(folder, META), MetadataSchema);
    const api = await this.readChecked(join(folder, API), ApiMessagesSchema);
    const ui = await this.readChecked(join(folder, UI), UiMessagesSchema);
    return { entry, api, ui, ...(resume && { resume }) };
  }

  async setFavorite(id: string, favorite: boolean): Promise<void> {
    let found = false;
    await this.changeIndex((tasks) =>
      tasks.map((t) => {
        if (t.id !== id) return t;
        found = true;
        return { ...t, favorite };
      }),
    );
    if (!found) throw new Error(`There is no task ${id} in the history.`);
  }

  /** Removes the task's folder and its index line. */
  async delete(id: string): Promise<void> {
    const folder = this.folderOf(id);
    this.deleted.add(id);
    await this.changeIndex((tasks) => tasks.filter((t) => t.id !== id));
    await fs.rm(folder, { recursive: true, force: true });
  }

  /** Read, change and write the index, holding the lock so no other window's change is lost. */
  private changeIndex(change: (tasks: HistoryEntry[]) => HistoryEntry[]): Promise<void> {
    const run = async () => {
      await fs.mkdir(this.root, { recursive: true });
      const release = await lock(this.indexPath, {
        realpath: false,
        stale: 10_000,
        retries: { retries: 200, minTimeout: 5, maxTimeout: 100, factor: 1.3, randomize: true },
      });
      try {
        const index = await this.readIndex([]);
        const next: HistoryIndex = { version: 1, tasks: change(index.tasks) };
        await this.files.writeFile(this.indexPath, JSON.stringify(next));
      } finally {
        await release();
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The index; rebuilt from the task folders when it is missing or damaged (the damaged one kept aside). */
  private async readIndex(problems: string[]): Promise<HistoryIndex> {
    let text: string;
    try {
      text = await fs.readFile(this.indexPath, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      return { version: 1, tasks: await this.scanFolders(problems) };
    }
    const parsed = parseJson(text, IndexSchema);
    if (parsed.ok) return parsed.value;
    const aside = await setAside(this.indexPath);
    problems.push(`The history index was damaged (${parsed.error}); it was kept as ${aside} and rebuilt from the task folders.`);
    return { version: 1, tasks: await this.scanFolders(problems) };
  }

  private async scanFolders(problems: string[]): Promise<HistoryEntry[]> {
    let names: string[];
    try {
      names = (await fs.readdir(this.root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const entries: HistoryEntry[] = [];
    for (const name of names) {
      if (!HistoryEntrySchema.shape.id.safeParse(name).success) continue;
      try {
        const { resume: _resume, ...entry } = await this.readChecked(join(this.root, name, META), MetadataSchema);
        entries.push(entry);
      } catch (err) {
        problems.push(err instanceof Error ? err.message : String(err));
      }
    }
    return entries;
  }

  private async readChecked<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    let text: string;
    try {
      text = await fs.readFile(path, "utf8");
    } catch (err) {
      throw new Error(`${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
    }
    const parsed = parseJson(text, schema);
    if (parsed.ok) return parsed.value;
    const aside = await setAside(path);
    throw new Error(`${path} is damaged (${parsed.error}); it was kept as ${aside}.`);
  }
}

function parseJson<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, error: `${issue?.path.join(".") || "the file"}: ${issue?.message ?? "unexpected content"}` };
}

/** Renames a damaged file beside itself so the user (or a bug report) still has it. */
async function setAside(path: string): Promise<string> {
  const aside = `${path}.damaged-${Date.now()}`;
  await fs.rename(path, aside);
  return aside;
}
