import { resolve } from "node:path";
import { CodebaseIndex } from "../../core/codeIndex/codebaseIndex";
import { createEmbedder, EMBEDDER_KINDS, type Embedder, type EmbedderKind } from "../../core/codeIndex/embedder";
import { indexDirFor } from "../../core/codeIndex/indexDatabase";
import { EMBEDDER_KEY_ENV } from "../../core/llm/keys";
import { registerSecret } from "../../core/llm/redact";
import { checkTeamUrl } from "../../core/codeIndex/team/teamUrl";
import { TeamIndex } from "../../core/codeIndex/team/teamIndex";
import type { IndexStatus, RefreshSummary, WorkspaceIndex } from "../../core/codeIndex/types";
import { formatSize } from "../../core/tools/fileFormats";
import { plural } from "../../shared/plural";
import { UsageError, type CliArgs } from "./args";

/**
 * The index `kiln run` searches and `kiln index` builds: saved under --index-dir, one folder per
 * workspace, with vectors from --embedder where one is given; or, with --index-postgres, the team's
 * on its server (this machine keeps only its record of what it sent, under --index-dir). A bad
 * configuration throws an Error saying what to fix, before anything is indexed.
 */
export function cliCodeIndex(args: CliArgs, workspace: string, env: Readonly<Record<string, string | undefined>> = process.env): WorkspaceIndex {
  const storeDir = indexDirFor(args.indexDir, workspace);
  const embedder = args.embedder && embedderOf(args.embedder);
  if (args.indexPostgres !== undefined) {
    try {
      checkTeamUrl(args.indexPostgres);
    } catch (err) {
      throw new UsageError(`--index-postgres: ${err instanceof Error ? err.message : String(err)}`);
    }
    // node-postgres reads PGPASSWORD itself; it is a secret all the same.
    registerSecret(env.PGPASSWORD);
    return new TeamIndex(workspace, { connection: { url: args.indexPostgres }, storeDir, ...(embedder && { embedder }) });
  }
  return new CodebaseIndex(workspace, { storeDir, ...(embedder && { embedder }) });
}

/** The embedder's key: KILN_EMBEDDER_API_KEY, or for OpenAI's and Google's own services their usual key. */
export function embedderKey(kind: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const usual = kind === "openai" ? [env.OPENAI_API_KEY] : kind === "gemini" ? [env.GEMINI_API_KEY, env.GOOGLE_API_KEY] : [];
  const key = [env[EMBEDDER_KEY_ENV], ...usual].map((value) => value?.trim()).find(Boolean);
  registerSecret(key);
  return key || undefined;
}

function embedderOf(flags: NonNullable<CliArgs["embedder"]>): Embedder {
  const kind = flags.kind as EmbedderKind;
  if (!EMBEDDER_KINDS.includes(kind)) throw new UsageError(`--embedder ${flags.kind}: use ${EMBEDDER_KINDS.join(", ")}`);
  try {
    return createEmbedder({
      kind,
      model: flags.model ?? "",
      ...(flags.baseUrl && { baseUrl: flags.baseUrl }),
      ...(flags.apiKey && { apiKey: flags.apiKey }),
      ...(flags.region && { region: flags.region }),
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * `kiln index`: builds or updates the workspace's codebase index and saves it (the next `kiln run`
 * reads only what changed since); `--status` says what is saved without changing it; `--rebuild`
 * indexes from nothing. Progress goes to stderr at a terminal; the result to stdout (JSON with --json).
 */
export async function runIndexCommand(args: CliArgs, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const workspace = resolve(args.workspace);
  const index = cliCodeIndex(args, workspace);
  try {
    return await indexWith(index, args, workspace, out, err);
  } catch (failure) {
    // A team server that cannot be reached or refuses the password: said in a line, no stack.
    err(`kiln: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    return 1;
  } finally {
    await index.close();
  }
}

async function indexWith(index: WorkspaceIndex, args: CliArgs, workspace: string, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  if (args.indexAction === "status") {
    for (const problem of (await index.load()).problems) err(`kiln: ${problem}\n`);
    const status = await index.status();
    if (args.json) out(`${JSON.stringify({ workspace, ...status })}\n`);
    else out(describeStatus(workspace, status));
    return 0;
  }
  if (args.indexAction === "rebuild") await index.clear();
  const showProgress = Boolean(process.stderr.isTTY) && !args.json;
  let last = 0;
  const summary = await index.refresh({
    waitForVectors: true,
    onProgress: (p) => {
      const now = Date.now();
      if (!showProgress || (now - last < 200 && p.filesDone < p.filesTotal)) return;
      last = now;
      err(`\rkiln: indexing ${p.filesDone}/${p.filesTotal} files`);
    },
  });
  if (showProgress) err("\n");
  for (const problem of summary.problems ?? []) err(`kiln: ${problem}\n`);
  const status = await index.status();
  if (args.json) out(`${JSON.stringify({ workspace, ...summarise(summary), ...status })}\n`);
  else out(`${describeRefresh(summary, status.team !== undefined)}\n${describeStatus(workspace, status)}`);
  // Saved or not, the index is usable; a save that failed is an error a script should see.
  return summary.problems?.some((p) => p.startsWith("the index cannot be saved")) ? 1 : 0;
}

function summarise(summary: RefreshSummary) {
  return { changed: summary.changed, removed: summary.removed, restored: summary.restored === true, ...(summary.embedded !== undefined && { embedded: summary.embedded }) };
}

function describeRefresh(summary: RefreshSummary, team: boolean): string {
  const vectors = summary.embedded !== undefined ? `, ${plural(summary.embedded, "chunk")} given vectors` : "";
  if (team) return `kiln: ${plural(summary.changed, "file")} sent to the team index, ${plural(summary.removed, "file")} taken off${vectors}`;
  const from = summary.restored ? "updated the saved index" : "indexed from nothing";
  return `kiln: ${from}: ${plural(summary.changed, "file")} read, ${plural(summary.removed, "file")} dropped${vectors}`;
}

function describeStatus(workspace: string, status: IndexStatus): string {
  const vectors = status.embedder ? `, ${status.vectors ?? 0} with vectors from ${status.embedder}` : "";
  if (status.team) return `Team codebase index of ${workspace} (${status.team.scope}): ${plural(status.files, "file")}, ${plural(status.chunks, "chunk")}${vectors} on ${status.team.server}\n`;
  if (!status.saved) return `No codebase index is saved for ${workspace} yet; kiln index builds it (in ${status.storeDir}).\n`;
  const counts = status.files > 0 || status.chunks > 0 ? `${plural(status.files, "file")}, ${plural(status.chunks, "chunk")}${vectors}; ` : "";
  return `Codebase index of ${workspace}: ${counts}${formatSize(status.saved.bytes)} saved ${new Date(status.saved.savedAt).toISOString()} in ${status.storeDir}\n`;
}
