import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { createProvider } from "../../core/llm/createProvider";
import { CancelledError, ProviderError, toProviderError } from "../../core/llm/errors";
import { listingsFrom } from "../../core/llm/modelListings";
import { builtinRows, modelRows, type ModelRow } from "../../core/llm/modelRows";
import { formatPrice, formatTokens } from "../../shared/modelList";
import { providerEntry, type ModelListing } from "../../core/llm/types";
import type { CliArgs } from "./args";

/** A provider's list changes with releases, not by the minute; a day saves a request per `kiln models`. */
const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const LIST_TIMEOUT_MS = 30_000;

type Source = "live" | "cache" | "table";

const CacheSchema = z.object({
  fetchedAt: z.number(),
  kind: z.string(),
  baseUrl: z.string(),
  // Checked again entry by entry when read, as when it came from the server.
  models: z.array(z.unknown()),
});

function cacheFile(args: CliArgs): string {
  const id = createHash("sha256").update(`${args.settings.kind}\n${args.settings.baseUrl.trim()}`).digest("hex").slice(0, 16);
  return join(args.cacheDir, "models", `${args.settings.kind}-${id}.json`);
}

async function readCache(file: string): Promise<{ listings: ModelListing[]; fetchedAt: number } | undefined> {
  try {
    const parsed = CacheSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
    if (!parsed.success || Date.now() - parsed.data.fetchedAt > CACHE_TTL_MS) return undefined;
    return { listings: cachedListings(parsed.data.models), fetchedAt: parsed.data.fetchedAt };
  } catch {
    // Missing or damaged: ask the provider.
    return undefined;
  }
}

const CachedInfo = z.record(z.string(), z.union([z.number(), z.boolean()]));

function cachedListings(raw: unknown[]): ModelListing[] {
  return listingsFrom("openai", raw).map((listing, i) => {
    const entry = raw[i] as { name?: unknown; info?: unknown };
    const info = CachedInfo.safeParse(entry.info);
    return { ...listing, ...(typeof entry.name === "string" && { name: entry.name }), ...(info.success && { info: info.data }) };
  });
}

async function writeCache(file: string, kind: string, baseUrl: string, listings: ModelListing[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ fetchedAt: Date.now(), kind, baseUrl, models: listings })}\n`);
  await rename(temp, file);
}

async function fetchListings(args: CliArgs, apiKey: string | undefined): Promise<ModelListing[] | undefined> {
  // A list needs no model chosen; the kinds whose server decides have no default to fall back on.
  const provider = createProvider({ ...args.settings, model: args.settings.model.trim() || "list", apiKey });
  if (!provider.listModels) return undefined;
  return provider.listModels(AbortSignal.timeout(LIST_TIMEOUT_MS));
}

function table(rows: readonly ModelRow[]): string {
  const header = ["MODEL", "WINDOW", "MAX OUT", "IN/M", "OUT/M", "TOOLS", "VISION"];
  const cells = rows.map((r) => [
    r.id,
    r.known ? formatTokens(r.contextWindow) : "?",
    r.known ? formatTokens(r.maxOutputTokens) : "?",
    formatPrice(r.inputPrice),
    formatPrice(r.outputPrice),
    r.supportsNativeTools ? "yes" : "no",
    r.supportsImages ? "yes" : "no",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [header, ...cells].map((line) => line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n");
}

function age(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

/** `kiln models`: the provider's models with window, limits, prices and abilities. */
export async function printModels(args: CliArgs, apiKey: string | undefined, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const { kind } = args.settings;
  const label = providerEntry(kind).label;
  const file = cacheFile(args);
  let source: Source = "live";
  let listings: ModelListing[] | undefined;
  const cached = args.refresh ? undefined : await readCache(file);
  if (cached) {
    source = "cache";
    listings = cached.listings;
  } else {
    try {
      listings = await fetchListings(args, apiKey);
      if (listings) await writeCache(file, kind, args.settings.baseUrl.trim(), listings).catch((e: Error) => err(`kiln: could not cache the model list: ${e.message}\n`));
    } catch (e) {
      const failure = toProviderError(e, label);
      err(`kiln: ${failure instanceof CancelledError ? `${label} did not list its models within ${LIST_TIMEOUT_MS / 1000} s` : failure.message}\n`);
      return failure instanceof ProviderError && failure.kind === "config" ? 2 : 1;
    }
  }
  const rows = listings ? modelRows(kind, listings) : builtinRows(kind);
  if (!listings) source = "table";
  if (args.json) {
    out(`${JSON.stringify({ provider: kind, source, models: rows })}\n`);
    return 0;
  }
  if (rows.length === 0) {
    err(`kiln: ${label} lists no models${source === "table" ? " and Kiln has no table for it; type the model id with --model" : ""}\n`);
    return 0;
  }
  out(`${table(rows)}\n`);
  const from = source === "live" ? "listed now" : source === "cache" ? `cached ${age(Date.now() - cached!.fetchedAt)} ago (--refresh asks again)` : "from Kiln's table (the provider has no list)";
  err(`${rows.length} models of ${label}, ${from}; prices are USD per million tokens, ? is unknown\n`);
  return 0;
}
