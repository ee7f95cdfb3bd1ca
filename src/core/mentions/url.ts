import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import TurndownService from "turndown";

export const URL_MAX_BYTES = 2 * 1024 * 1024;
export const URL_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;
const MAX_URL_LENGTH = 8_192;

export interface FetchOptions {
  /** kiln.mentions.allowPrivateUrls: the user lets mentions reach loopback and private networks. */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface FetchedPage {
  /** Where the page was read from, after redirects. */
  url: string;
  markdown: string;
  /** The page was longer than maxBytes and only its start was read. */
  truncated: boolean;
}

/** Why a URL was not fetched, in words the user can act on. */
export class UrlError extends Error {}

/**
 * Addresses a mention may not reach unless the user allows it: a link pasted from anywhere must not
 * make Kiln read the machine's own services, the LAN or a cloud metadata endpoint (169.254.169.254).
 * IPv4-mapped IPv6 addresses are checked against the IPv4 ranges by BlockList itself.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 6 ? "ipv6" : "ipv4");
}

function refusal(host: string, address: string): UrlError {
  return new UrlError(`${host} resolves to ${address}, a private, loopback or link-local address; Kiln does not fetch those unless the setting kiln.mentions.allowPrivateUrls is on.`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Node's connect asks this for the address: checking here, after DNS, means a name that resolves
 * to a private address is refused, and the address checked is the one connected to (no second
 * lookup a rebinding DNS server could answer differently).
 */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    const family = options.family === "IPv6" || options.family === 6 ? 6 : options.family === "IPv4" || options.family === 4 ? 4 : 0;
    dnsLookup(hostname, { family, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const blocked = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (blocked) return callback(refusal(hostname, blocked.address) as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`) as NodeJS.ErrnoException, []);
      callback(null, first.address, first.family);
    });
  };
}

/** Checks a URL the user typed before anything is sent. */
export function parseHttpUrl(raw: string): URL {
  if (raw.length > MAX_URL_LENGTH) throw new UrlError(`the URL is over ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlError(`"${raw}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UrlError(`only http and https URLs can be mentioned, not ${url.protocol}`);
  if (url.username || url.password) throw new UrlError("URLs with a user name or password are not fetched.");
  return url;
}

function get(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // A literal address skips the lookup entirely, so it is checked here.
  if (!options.allowPrivate && isPrivateAddress(host)) return Promise.reject(refusal(host, host));
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "GET", signal, lookup: guardedLookup(options.allowPrivate), headers: { accept: "text/html, text/plain, text/markdown, application/json;q=0.9, */*;q=0.1", "user-agent": "Kiln" } },
      resolve,
    );
    req.on("error", reject);
    req.end();
  });
}

async function readCapped(response: IncomingMessage, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
    }
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

export function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  // Scripts and styles are code for the browser, not content for the reader.
  turndown.remove(["script", "style", "noscript", "iframe", "svg", "head"] as unknown as TurndownService.Filter);
  return turndown
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Fetches an http(s) page (following redirects, each one checked) as Markdown. */
export async function fetchAsMarkdown(raw: string, options: FetchOptions): Promise<FetchedPage> {
  let url = parseHttpUrl(raw);
  const timeoutMs = options.timeoutMs ?? URL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    for (let hop = 0; ; hop++) {
      const response = await get(url, options, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        if (hop >= MAX_REDIRECTS) throw new UrlError(`more than ${MAX_REDIRECTS} redirects.`);
        url = parseHttpUrl(new URL(location, url).toString());
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new UrlError(`the server answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ""}.`);
      }
      const type = (response.headers["content-type"] ?? "").toLowerCase();
      const isHtml = type.includes("html");
      if (type && !isHtml && !type.startsWith("text/") && !type.includes("json") && !type.includes("xml")) {
        response.resume();
        throw new UrlError(`the page is ${type.split(";")[0]}, not text.`);
      }
      const { bytes, truncated } = await readCapped(response, options.maxBytes ?? URL_MAX_BYTES);
      const text = new TextDecoder("utf-8").decode(bytes);
      return { url: url.toString(), markdown: isHtml ? htmlToMarkdown(text) : text.trim(), truncated };
    }
  } catch (err) {
    if (err instanceof UrlError) throw err;
    if (timeout.aborted) throw new UrlError(`no complete answer within ${Math.round(timeoutMs / 1000)} s.`);
    if (options.signal?.aborted) throw new UrlError("cancelled.");
    throw new UrlError(err instanceof Error ? err.message : String(err));
  }
}
