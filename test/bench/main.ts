import { runParserBench } from "./parserBench";
import { runSearchBench } from "./searchBench";

runParserBench();
await runSearchBench();
(await import("./editBench")).runEditBench();
