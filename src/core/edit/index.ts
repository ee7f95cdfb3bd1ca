/** The edit engine's public seam: tools and hosts import from here, not from the modules behind it. */
export { applySearchReplace, type BlockMatch, type SearchReplaceOptions, type SearchReplaceResult } from "./searchReplace";
export type { BlockFailure, LineDifference } from "./report";
export type { MatchLevel } from "./locate";
export { countBlocks } from "./parse";
export { FORMAT as SEARCH_REPLACE_FORMAT } from "./report";
