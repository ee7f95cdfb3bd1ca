import "./host";

/*
 * The components under test. The root tsconfig type-checks test/ for Node, without --jsx, so it
 * cannot load .tsx files (TS6142) and sees these as untyped there; test/unit/webview/tsconfig.json
 * checks the same tests with the real types (`npx tsc -p test/unit/webview`).
 */
// @ts-ignore TS6142 under the root tsconfig only
export { App } from "../../../webview-ui/src/App";
// @ts-ignore TS6142 under the root tsconfig only
export { Markdown } from "../../../webview-ui/src/Markdown";
// @ts-ignore TS6142 under the root tsconfig only
export { Message } from "../../../webview-ui/src/Message";
// @ts-ignore TS6142 under the root tsconfig only
export { Thinking, awaitingReply } from "../../../webview-ui/src/Thinking";
// @ts-ignore TS6142 under the root tsconfig only
export { ToolCard } from "../../../webview-ui/src/ToolCard";
export { ChatStore } from "../../../webview-ui/src/store";
export { McpStore } from "../../../webview-ui/src/mcp/mcpStore";
export { HistoryStore } from "../../../webview-ui/src/history/historyStore";
// @ts-ignore TS6142 under the root tsconfig only
export { ago } from "../../../webview-ui/src/EmptyChat";
