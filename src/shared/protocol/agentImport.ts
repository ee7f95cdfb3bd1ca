import type { ImportSourceKind } from "../historyEntry";

/**
 * What the settings page's Import section shows: the other agents found on this machine, what an
 * import of one brings (or would bring), and what a settings export's provider profiles became.
 */

/** Another agent's data found on this machine (Kilo, Roo, Zoo, Cline): what the import section offers. */
export interface ImportSourceView {
  kind: ImportSourceKind;
  label: string;
  /** Its global storage folder, as found. */
  path: string;
}

/** One kind of thing in an import: how many came (or would come) over, were there already, or were left out and why. */
export interface ImportPartView {
  imported: number;
  alreadyThere: number;
  /** At most the first 20, with `moreSkipped` counting the rest. */
  skipped: { name: string; reason: string }[];
  moreSkipped: number;
}

/** What a settings export's provider profiles became: names as written into kiln.profiles. */
export interface ProfileImportView {
  file: string;
  imported: string[];
  alreadyThere: string[];
  skipped: { name: string; reason: string }[];
  /** Profiles whose key is to be set (none is copied from an export). */
  needKey: string[];
}

export interface ImportSummaryView {
  kind: ImportSourceKind;
  label: string;
  dryRun: boolean;
  modes: ImportPartView;
  rules: ImportPartView;
  mcp: ImportPartView;
  tasks: ImportPartView;
  /** The open folder's own servers from that agent (Roo's .roo/mcp.json), into its .kilocode/mcp.json. */
  projectMcp?: ImportPartView;
  notes: string[];
}
