import { runParserBench } from "./parserBench";

runParserBench();
