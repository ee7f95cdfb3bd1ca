import { runParserBench } from "./parserBench";
import { runSearchBench } from "./searchBench";

await (await import("./scalingBench")).runScalingBench(); // First: each of its child processes runs one point and exits here.
runParserBench();
await runSearchBench();
(await import("./editBench")).runEditBench();
await (await import("./chatBench")).runChatBench(process.cwd());
await (await import("./historyBench")).runHistoryBench();
await (await import("./commandPolicyBench")).runCommandPolicyBench();
await (await import("./streamLimitsBench")).runStreamLimitsBench(process.cwd());
await (await import("./providerBench")).runProviderBench();
await (await import("./pickerBench")).runPickerBench(process.cwd());
