import type { NativeTool } from "../llm/types";
import type { Mode } from "../modes/modes";
import { toolsForMode } from "../modes/modes";
import type { Approvals } from "../ports/approvals";
import type { FileSystem } from "../ports/fileSystem";
import { buildSystemPrompt, type ToolProtocol } from "../prompts/system";
import type { AutoApprovePolicy, PipelineDeps } from "../tools/pipeline";
import type { ToolRegistry } from "../tools/registry";

/** Everything the loop needs to work with tools, built once per task by the host. */
export interface Toolbox {
  protocol: ToolProtocol;
  maxRequests: number;
  xmlParams(): Record<string, string[]>;
  nativeTools(): NativeTool[];
  systemPrompt(): string;
  pipeline(signal: AbortSignal): PipelineDeps;
}

export interface ToolboxOptions {
  registry: ToolRegistry;
  mode: Mode;
  protocol: ToolProtocol;
  approvals: Approvals;
  autoApprove: AutoApprovePolicy;
  cwd: string;
  fs: FileSystem;
  os: string;
  maxRequests?: number;
  saveOverflow?(toolName: string, text: string): Promise<string>;
}

export function createToolbox(options: ToolboxOptions): Toolbox {
  const tools = toolsForMode(options.mode, options.registry.list());
  return {
    protocol: options.protocol,
    maxRequests: options.maxRequests ?? 100,
    xmlParams: () => options.registry.xmlParams(tools),
    nativeTools: () => options.registry.nativeSchemas(tools),
    systemPrompt: () =>
      buildSystemPrompt(options.mode, options.protocol, options.protocol === "xml" ? options.registry.xmlSection(tools) : "", {
        cwd: options.cwd,
        os: options.os,
        now: new Date(),
      }),
    pipeline: (signal) => ({
      registry: options.registry,
      mode: options.mode,
      approvals: options.approvals,
      autoApprove: options.autoApprove,
      context: { cwd: options.cwd, fs: options.fs, signal },
      saveOverflow: options.saveOverflow,
    }),
  };
}
