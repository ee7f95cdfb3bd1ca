import { runParserBench } from "./parserBench";
import { runSearchBench } from "./searchBench";

runParserBench();
await runSearchBench();
(await import("./editBench")).runEditBench();
await (await import("./chatBench")).runChatBench(process.cwd());
await (await import("./historyBench")).runHistoryBench();
await (await import("./commandPolicyBench")).runCommandPolicyBench();
