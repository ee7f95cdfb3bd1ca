/**
 * The browser's only way out: Chromium is started with this proxy for every host (loopback
 * included), so what request interception cannot see — WebSockets, workers' fetches, a page's
 * service worker — is judged by the same guard. Plain HTTP is forwarded; HTTPS and WebSockets
 * arrive as CONNECT tunnels, checked by host and port before any byte is passed on.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import type { NavigationCheck } from "../ports/browser";

export interface GuardProxy {
  /** `--proxy-server` for Chromium. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port; `check` is read at each request (a new launch sets a new guard). */
export async function startGuardProxy(check: () => NavigationCheck | undefined, log: (line: string) => void): Promise<GuardProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => void forward(req, res));
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => void tunnel(req, client, head));
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function refused(target: string): Promise<string | undefined> {
    const guard = check();
    if (!guard) return undefined;
    try {
      return await guard(target);
    } catch (err) {
      return `it could not be checked (${err instanceof Error ? err.message : String(err)})`;
    }
  }

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("Kiln's browser proxy takes absolute URLs only.");
      return;
    }
    const reason = await refused(url.href);
    if (reason) {
      log(`[blocked by Kiln] ${url.href.slice(0, 200)}: ${reason}`);
      res.writeHead(403, { "content-type": "text/plain" }).end(`Blocked by Kiln: ${reason}`);
      return;
    }
    const upstream = httpRequest(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (err) => {
      // The session turns the header back into the error Chromium would have given without a proxy.
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain", [PROXY_ERROR_HEADER]: networkError(err) });
      res.end(`Kiln's browser proxy could not reach ${url.host}: ${err.message}`);
    });
    req.pipe(upstream);
  }

  async function tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on("error", () => undefined);
    const [host, portText] = splitHostPort(req.url ?? "");
    const port = Number(portText);
    if (!host || !Number.isInteger(port) || port <= 0 || port > 65535) {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    // A tunnel is TLS or a WebSocket, to an http or https origin: it passes when either would.
    const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
    const secure = await refused(`https://${authority}/`);
    const reason = secure && (await refused(`http://${authority}/`));
    if (reason) {
      log(`[blocked by Kiln] ${host}:${port}: ${reason}`);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nBlocked by Kiln: ${reason}`);
      return;
    }
    const upstream = connect(port, host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
    client.on("close", () => upstream.destroy());
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // The browser's own lifetime decides; the proxy never keeps the CLI running on its own.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Set on a 502 the proxy made itself: the network error, as Chromium names it. */
export const PROXY_ERROR_HEADER = "x-kiln-proxy-error";

function networkError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return "net::ERR_CONNECTION_REFUSED";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "net::ERR_NAME_NOT_RESOLVED";
    case "ETIMEDOUT":
      return "net::ERR_CONNECTION_TIMED_OUT";
    case "ECONNRESET":
      return "net::ERR_CONNECTION_RESET";
    default:
      return `net::ERR_FAILED (${err.code ?? err.message})`;
  }
}

/** `host:port` or `[v6]:port`. */
function splitHostPort(authority: string): [string, string] {
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (v6) return [v6[1]!, v6[2]!];
  const at = authority.lastIndexOf(":");
  return at < 0 ? [authority, ""] : [authority.slice(0, at), authority.slice(at + 1)];
}
