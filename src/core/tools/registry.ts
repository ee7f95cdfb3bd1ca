import { askFollowupQuestionTool } from "./askFollowupQuestion";
import { attemptCompletionTool } from "./attemptCompletion";
import { browserActionTool } from "./browserAction";
import type { AnyTool } from "./defineTool";
import { listFilesTool } from "./listFiles";
import { searchFilesTool } from "./searchFiles";
import { codebaseSearchTool } from "./codebaseSearch";
import { listCodeDefinitionsTool } from "./listCodeDefinitions";
import { findReferencesTool, goToDefinitionTool } from "./codeNavigation";
import { callHierarchyTool, workspaceSymbolsTool } from "./codeSymbols";
import { renameSymbolTool } from "./renameSymbol";
import { fetchInstructionsTool } from "./fetchInstructions";
import { useSkillTool } from "./useSkill";
import { toJsonSchema, toXmlUsage } from "./params";
import { readFileTool } from "./readFile";
import { writeToFileTool } from "./writeToFile";
import { insertContentTool } from "./insertContent";
import { searchAndReplaceTool } from "./searchAndReplace";
import { deleteFileTool } from "./deleteFile";
import { newRuleTool } from "./newRule";
import { applyDiffTool } from "./applyDiff";
import { executeCommandTool } from "./executeCommand";
import { readCommandOutputTool } from "./readCommandOutput";
import { TASK_TOOLS } from "./taskTools";
import { accessMcpResourceTool, useMcpToolTool } from "./useMcpTool";

export interface NativeToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`tool ${tool.name} is registered twice`);
      this.tools.set(tool.name, tool);
    }
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  list(): AnyTool[] {
    return [...this.tools.values()];
  }

  /** Tool name -> its param names, what the XML parser needs to know what may open. */
  xmlParams(tools: readonly AnyTool[] = this.list()): Record<string, string[]> {
    return Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.params)]));
  }

  nativeSchemas(tools: readonly AnyTool[] = this.list()): NativeToolSchema[] {
    return tools.map((t) => ({ name: t.name, description: t.description, parameters: toJsonSchema(t.params) }));
  }

  xmlSection(tools: readonly AnyTool[] = this.list()): string {
    return tools.map((t) => `## ${t.name}\n${t.description}\n${toXmlUsage(t.name, t.params)}`).join("\n\n");
  }
}

export function createDefaultRegistry(): ToolRegistry {
  return new ToolRegistry([
    readFileTool,
    listFilesTool,
    searchFilesTool,
    codebaseSearchTool,
    listCodeDefinitionsTool,
    goToDefinitionTool,
    findReferencesTool,
    workspaceSymbolsTool,
    callHierarchyTool,
    fetchInstructionsTool,
    useSkillTool,
    writeToFileTool,
    applyDiffTool,
    insertContentTool,
    searchAndReplaceTool,
    renameSymbolTool,
    deleteFileTool,
    newRuleTool,
    executeCommandTool,
    readCommandOutputTool,
    browserActionTool,
    useMcpToolTool,
    accessMcpResourceTool,
    askFollowupQuestionTool,
    attemptCompletionTool,
    ...TASK_TOOLS,
  ]);
}
