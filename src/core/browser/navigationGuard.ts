/**
 * Where the task's browser may go. The browser is held to the file tools' rules and the @-URL
 * mentions' rules: a `file:` URL is a path (hidden files stay hidden, outside the workspace only
 * where the user approved), and loopback, private and link-local addresses are reached only with
 * the user's setting or at the origin the user approved opening. Every request is checked, so a
 * redirect or a page's own fetch is judged hop by hop, not only the URL the model asked for.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { fileURLToPath } from "node:url";
import { isPrivateAddress } from "../mentions/url";
import { resolveRealPath } from "../tools/paths";
import type { IgnoreRules } from "../workspace/ignore";

export interface NavigationGuardOptions {
  /** The workspace root. */
  cwd: string;
  ignore: IgnoreRules;
  /** kiln.mentions.allowPrivateUrls / --allow-private-urls: loopback and private addresses are fine. */
  allowPrivate: boolean;
  /** The URL whose opening the user approved (or the policy allowed): its origin, or its file, is fine. */
  launched: string;
  /** The addresses a name resolves to; the system resolver unless a test gives another. */
  resolve?(host: string): Promise<string[]>;
}

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address);
}

/** A host written as a local name or address, known without a DNS lookup. */
export function isLocalHostName(hostname: string): boolean {
  // `localhost.` (the root's dot) is localhost too.
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && isPrivateAddress(host);
}

/** The file a `file:` URL names, or undefined for other URLs (or one that names no local file). */
export function filePathOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "file:") return undefined;
    return fileURLToPath(parsed);
  } catch {
    return undefined;
  }
}

export class NavigationGuard {
  private readonly launchedOrigin: string | undefined;
  private readonly launchedFile: string | undefined;

  constructor(private readonly options: NavigationGuardOptions) {
    this.launchedFile = filePathOf(options.launched);
    try {
      const url = new URL(options.launched);
      this.launchedOrigin = url.protocol === "file:" ? undefined : url.origin;
    } catch {
      this.launchedOrigin = undefined;
    }
  }

  /** Why the browser may not load `url`, or undefined when it may. */
  async check(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `${url.slice(0, 200)} is not a URL`;
    }
    switch (parsed.protocol) {
      case "about:":
      case "data:":
      case "blob:":
        return undefined;
      case "file:":
        return this.checkFile(url);
      case "http:":
      case "https:":
      case "ws:":
      case "wss:":
        return this.checkHost(parsed);
      default:
        return `${parsed.protocol} URLs are not opened by Kiln's browser`;
    }
  }

  private async checkFile(url: string): Promise<string | undefined> {
    const path = filePathOf(url);
    if (!path) return `${url.slice(0, 200)} names no local file`;
    const resolved = await resolveRealPath(this.options.cwd, path);
    const hidden = (p: string) => this.options.ignore.isHiddenFromAgent(p);
    if (!resolved.outsideWorkspace && (hidden(resolved.absolute) || (resolved.real && hidden(resolved.real.absolute)))) {
      return `${resolved.display} is hidden from Kiln by .kilocodeignore`;
    }
    // The file the user approved opening is fine wherever it is; other files outside the workspace are not.
    if (resolved.outsideWorkspace && path !== this.launchedFile) return `${path} is outside the workspace, and only the file you approved opening may be loaded from there`;
    return undefined;
  }

  private async checkHost(url: URL): Promise<string | undefined> {
    if (this.options.allowPrivate) return undefined;
    const origin = url.origin.replace(/^ws/, "http");
    if (origin === this.launchedOrigin) return undefined;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isLocalHostName(host)) return privateReason(url.host);
    if (isIP(host) !== 0) return undefined;
    let addresses: string[];
    try {
      addresses = await (this.options.resolve ?? systemResolve)(host);
    } catch {
      // A name that does not resolve cannot be reached either; the browser reports that itself.
      return undefined;
    }
    const local = addresses.find((a) => isPrivateAddress(a));
    return local ? `${privateReason(url.host)} (it resolves to ${local})` : undefined;
  }
}

function privateReason(host: string): string {
  return `${host} is a loopback, private or link-local address; Kiln's browser reaches those only at the address you approved opening, or with the setting kiln.mentions.allowPrivateUrls (CLI: --allow-private-urls)`;
}
