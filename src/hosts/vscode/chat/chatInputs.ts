import { join } from "node:path";
import * as vscode from "vscode";
import { BUILTIN_COMMANDS, findBuiltin } from "../../../core/commands/builtins";
import { fillArguments, parseSlashCommand, readWorkflow, WORKFLOW_DIRS, workflowNames } from "../../../core/commands/workflows";
import { FileSearch, type PathEntry } from "../../../core/mentions/fileSearch";
import { resolveMentions, type MentionHost } from "../../../core/mentions/resolve";
import type { Logger } from "../../../core/ports";
import { NodeFileSystem } from "../../../platform/node/nodeFileSystem";
import type { SlashCommandInfo } from "../../../shared/protocol/messages";
import { WorkspaceIgnore } from "../../../core/workspace/ignore";
import { formatProblems } from "../actions/problems";
import { KILN, readSetting } from "../settings/kilnSettings";
import { loadSkill, skillForModel, type Skill } from "../../../core/skills/skills";

/** What a typed message becomes before it reaches the task. */
export interface PreparedMessage {
  /** /newtask: the chat starts a new task, and `text` is sent there (prepared again). */
  newTask?: boolean;
  text: string;
  /** What the model gets: the workflow or built-in prompt, with the mentions' content added. */
  forModel: string;
  /** A workflow's `mode:`: the chat switches to it first. */
  mode?: string;
}

/**
 * The host side of the chat input: the @ picker's file search, the / picker's commands, and turning
 * a sent message's slash command and @ mentions into what the model reads. Workspace files are read
 * from disk (a remote workspace without a local path gets no search and no mentions).
 */
export class ChatInputs {
  private search: { root: string; files: FileSearch } | undefined;
  private readonly fs = new NodeFileSystem();

  constructor(
    /** The global commands folder, in the extension's global storage. */
    private readonly globalCommandsDir: string,
    private readonly logger: Logger,
    private readonly host: MentionHost = { problems: () => formatProblems(), terminalOutput: () => undefined },
    /** The enabled skills for a workspace folder (none open: the global ones); each runs as /<name>. */
    private readonly skills: (root: string | undefined) => readonly Skill[] = () => [],
  ) {}

  async searchFiles(query: string): Promise<PathEntry[]> {
    const root = this.root();
    if (!root) return [];
    if (this.search?.root !== root) this.search = { root, files: new FileSearch(root, this.fs) };
    return this.search.files.search(query);
  }

  /** Built-ins, then the workspace's workflows, then global ones, then skills (a name is listed once). */
  async commands(): Promise<SlashCommandInfo[]> {
    const out: SlashCommandInfo[] = BUILTIN_COMMANDS.map((c) => ({ name: c.name, description: c.description, ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}), source: "builtin" }));
    for (const [dir, source] of this.workflowDirs()) {
      for (const name of await workflowNames(this.fs, dir)) {
        if (out.some((c) => c.name === name)) continue;
        const workflow = await readWorkflow(this.fs, dir, name);
        if (!workflow) continue;
        out.push({ name, description: workflow.description ?? `Workflow ${name}.md`, ...(workflow.argumentHint ? { argumentHint: workflow.argumentHint } : {}), source });
      }
    }
    for (const skill of this.skills(this.root())) if (!out.some((c) => c.name === skill.name)) out.push({ name: skill.name, description: skill.description, source: "skill" });
    return out;
  }

  async prepare(text: string): Promise<PreparedMessage> {
    const slash = parseSlashCommand(text);
    let forModel = text;
    let mode: string | undefined;
    if (slash) {
      const builtin = findBuiltin(slash.name);
      if (builtin?.name === "newtask") return { newTask: true, text: slash.args, forModel: slash.args };
      if (builtin?.prompt) forModel = builtin.prompt(slash.args);
      else if (!builtin) {
        const found = await this.findWorkflow(slash.name);
        const skill = found ? undefined : this.skills(this.root()).find((s) => s.name === slash.name);
        if (found) {
          forModel = fillArguments(found.body, slash.args);
          mode = found.mode;
        } else if (skill) {
          forModel = this.skillText(skill, slash.args) ?? forModel;
        }
        // An unknown /word goes to the model as typed: it may be a path or plain text.
      }
    }
    return { text, forModel: await this.resolve(forModel), ...(mode ? { mode } : {}) };
  }

  /** The skill's instructions for `/name args`; undefined (the message goes as typed) when it cannot be read. */
  private skillText(skill: Skill, args: string): string | undefined {
    try {
      return skillForModel(loadSkill(skill), args);
    } catch (err) {
      this.logger.warn(`could not read skill ${skill.name} in ${skill.folder}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  private async resolve(text: string): Promise<string> {
    const root = this.root();
    if (!root) return text;
    const allowPrivateUrls = readSetting(KILN.mentions.allowPrivateUrls, this.logger);
    return resolveMentions(text, { cwd: root, fs: this.fs, ignore: new WorkspaceIgnore(root), host: this.host, allowPrivateUrls });
  }

  private async findWorkflow(name: string) {
    for (const [dir] of this.workflowDirs()) {
      try {
        const workflow = await readWorkflow(this.fs, dir, name);
        if (workflow) return workflow;
      } catch (err) {
        this.logger.warn(`could not read workflow ${name} in ${dir}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return undefined;
  }

  /** The workspace's commands first (Kiln's folder, then the other agents'): a project's workflow wins over a global one of the same name. */
  private workflowDirs(): [string, "project" | "global"][] {
    const root = this.root();
    const project = root ? WORKFLOW_DIRS.map((dir): [string, "project"] => [join(root, dir), "project"]) : [];
    return [...project, [this.globalCommandsDir, "global"]];
  }

  private root(): string | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder?.uri.scheme === "file" ? folder.uri.fsPath : undefined;
  }
}
