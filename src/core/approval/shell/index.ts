import type { AnalyzedCommand } from "../commands";
import { analyzeCommand } from "./analyze";
import { checkCommandPaths, type PathJudge } from "./pathCheck";

/** A command line as the policy judges it: parsed, and its paths looked up from `cwd`. */
export async function readCommand(text: string, cwd: string, judge: PathJudge, platform: NodeJS.Platform = process.platform): Promise<AnalyzedCommand> {
  const analysis = await analyzeCommand(text, platform);
  await checkCommandPaths(analysis, cwd, judge);
  return { ...analysis, text };
}

export type { PathJudge };
