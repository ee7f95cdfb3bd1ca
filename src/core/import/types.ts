import type { HistoryStore } from "../history/HistoryStore";
import type { HistoryEntry } from "../history/types";
import type { ModeInput } from "../modes/modeFileEdits";
import type { FileSystem } from "../ports/fileSystem";
import type { ProviderKind } from "../../shared/providerCatalog";
import type { SourceKind } from "./sources";

/** Something that was not imported, and why (named so a person can find it: a file, a server, a task folder). */
export interface Skipped {
  name: string;
  reason: string;
}

export interface PlannedMode {
  slug: string;
  input: ModeInput;
  /** The file it was read from. */
  from: string;
}

export interface PlannedRule {
  /** As shown: `rules/style.md`, `rules-code/tests.md`. */
  name: string;
  /** Absent: a rule for every mode. */
  mode?: string;
  /** Below the rules folder, with the platform's separators. */
  relative: string;
  /** The source file, absolute. */
  from: string;
}

export interface PlannedServer {
  name: string;
  /** The entry as the source file writes it: copied as is, fields Kiln does not use included. */
  entry: Record<string, unknown>;
  from: string;
}

export interface PlannedTask {
  /** The task's folder name in the source. */
  sourceId: string;
  folder: string;
  /** Its history entry in Kiln; the messages are read again when it is imported, so a big history is not held twice. */
  entry: HistoryEntry;
}

/** What a source holds, read and checked; nothing written yet. */
export interface ImportPlan {
  source: SourceKind;
  storageDir: string;
  modes: PlannedMode[];
  rules: PlannedRule[];
  mcp: PlannedServer[];
  /** The project's MCP servers (Roo's .roo/mcp.json), read when a workspace is given. */
  projectMcp: PlannedServer[];
  tasks: PlannedTask[];
  /** What could not be read: a bad mode or server, a damaged task. */
  skipped: { modes: Skipped[]; rules: Skipped[]; mcp: Skipped[]; projectMcp: Skipped[]; tasks: Skipped[] };
  /** Worth saying but not stopping anything: an unreadable optional file, whose part is then left out. */
  notes: string[];
}

/** Where the import writes. The hosts choose: the CLI its files under ~/.kilocode, the extension its global storage. */
export interface ImportTargets {
  /** The global modes file (YAML or JSON, `customModes:`). */
  modesFile: string;
  /** The global rules folder; a mode's rules go to `<rulesDir>-<mode>`. */
  rulesDir: string;
  /** The global MCP file (`{"mcpServers": {}}`). */
  mcpFile: string;
  history: HistoryStore;
  /** The project's MCP servers (Roo's .roo/mcp.json) go into this folder's .kilocode/mcp.json. */
  workspace?: string;
  /** Only the tasks recorded in `workspace` (the CLI's --workspace); the editor imports every task. */
  onlyWorkspaceTasks?: boolean;
  /** Writes each file atomically (temp file + rename). */
  files: FileSystem;
}

/** For each kind of thing: what came over, what was there already, what was left and why. */
export interface Outcome {
  imported: string[];
  alreadyThere: string[];
  skipped: Skipped[];
}

export interface ImportResult {
  source: SourceKind;
  storageDir: string;
  dryRun: boolean;
  modes: Outcome & { file: string };
  rules: Outcome & { folder: string };
  mcp: Outcome & { file: string };
  /** Present when a workspace was given. */
  projectMcp?: Outcome & { file: string };
  /** Task names are Kiln's history ids; otherWorkspace counts the tasks left out by the workspace filter. */
  tasks: Outcome & { otherWorkspace: number };
  notes: string[];
}

/**
 * A provider profile brought over from a settings export, in Kiln's terms and without any credential:
 * the fields a Kiln profile has (src/shared/providerCatalog.ts), each host writing it its own way.
 */
export interface ImportedProfile {
  /** The profile's name in the source, as the user wrote it. */
  name: string;
  kind: ProviderKind;
  baseUrl?: string;
  model?: string;
  region?: string;
  awsProfile?: string;
  project?: string;
  /** A path to a service account key file (Vertex): where a credential is, not the credential. */
  keyFile?: string;
  apiVersion?: string;
  /** The source kept a credential with it (dropped here), or Kiln's provider cannot be called without one. */
  needsKey: boolean;
}

/** What a settings export holds, read and checked; nothing written yet. */
export interface ProfilesPlan {
  /** The export that was read. */
  file: string;
  profiles: ImportedProfile[];
  /** Profiles that cannot come over (an unknown provider, a bad field), and why. */
  skipped: Skipped[];
  /** The profile the source had selected, when it is one of `profiles`. */
  current?: string;
  /** Mode slug → profile name (as in `profiles`), where the source pinned a profile to a mode. */
  modeProfiles: Record<string, string>;
  notes: string[];
}

/** The profiles part of an import's result. Names are those written into Kiln's file. */
export interface ProfilesOutcome extends Outcome {
  /** Where they went (the CLI's config file). */
  file: string;
  /** The settings export they came from. */
  settingsFile: string;
  /** Profiles (imported or already there) whose key must be given to Kiln, since none was copied. */
  needKey: string[];
  /** Source name → the name written, for names Kiln's file does not allow as they are. */
  renamed: Record<string, string>;
}
