export * from "./chat";
export * from "./messages";
