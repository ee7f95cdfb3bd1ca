/**
 * `npm run bench` runs every section; `npm run bench -- index provider` runs the named ones.
 * `npm run bench -- make-eval-set` writes the codebase-search evaluation set again (codeSearch/makeEvalSet.ts).
 */
export {};
const sections: Record<string, () => Promise<void> | void> = {
  // First: each of its child processes runs one point and exits here.
  scaling: async () => (await import("./scalingBench")).runScalingBench(),
  parser: async () => (await import("./parserBench")).runParserBench(),
  search: async () => (await import("./searchBench")).runSearchBench(),
  edit: async () => (await import("./editBench")).runEditBench(),
  chat: async () => (await import("./chatBench")).runChatBench(process.cwd()),
  history: async () => (await import("./historyBench")).runHistoryBench(),
  commandPolicy: async () => (await import("./commandPolicyBench")).runCommandPolicyBench(),
  streamLimits: async () => (await import("./streamLimitsBench")).runStreamLimitsBench(process.cwd()),
  provider: async () => (await import("./providerBench")).runProviderBench(),
  picker: async () => (await import("./pickerBench")).runPickerBench(process.cwd()),
  index: async () => (await import("./codeSearch/indexBench")).runIndexBench(process.cwd()),
  store: async () => (await import("./codeSearch/storeBench")).runStoreBench(process.cwd()),
  vectors: async () => (await import("./codeSearch/vectorBench")).runVectorBench(),
  team: async () => (await import("./codeSearch/teamBench")).runTeamBench(process.cwd()),
};

const asked = process.argv.slice(2);
if (asked.includes("make-eval-set")) {
  await (await import("./codeSearch/makeEvalSet")).makeEvalSet(process.cwd());
} else {
  const unknown = asked.filter((name) => !(name in sections));
  if (unknown.length > 0) throw new Error(`unknown bench section ${unknown.join(", ")}; the sections: ${Object.keys(sections).join(", ")}`);
  for (const [name, run] of Object.entries(sections)) if (asked.length === 0 || asked.includes(name)) await run();
}
