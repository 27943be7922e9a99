/**
 * Streamable HTTP serving: the official SDK's handler behind a bearer token, on a loopback
 * address unless told otherwise, with the Host and Origin headers checked against DNS rebinding.
 */
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { parseOptions } from '../../core/utils/parse-options.js';
import type { Logger } from '../../index.js';
import { createHttpGuard, urlHost } from '../http-guard/http-guard.js';
import { markProtoArguments } from './raw-arguments.js';

/** The largest request body read: the SDK's own default (4 MiB); a larger one is answered 413. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

const optionsSchema = z
  .object({
    server: z.custom<() => Server>((value) => typeof value === 'function', { message: 'expected a server factory' }),
    token: z.string().min(16, 'expected a token of at least 16 characters'),
    host: z.string().trim().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(0),
    path: z.string().startsWith('/', 'expected a path starting with "/"').default('/mcp'),
    allowRemote: z.boolean().default(false),
    allowedHosts: z.array(z.string().trim().min(1)).max(100).default([]),
    logger: z.custom<Logger>((value) => typeof (value as Logger | undefined)?.log === 'function').optional(),
  })
  .strict();

/**
 * Options of {@link serveMcpHttp}.
 *
 * @group MCP
 */
export interface ServeMcpHttpOptions {
  /** The server factory, from {@link createMcpServer}. */
  server: () => Server;
  /** The bearer token every request must carry (`Authorization: Bearer <token>`); at least 16 characters. */
  token: string;
  /** Address to listen on. Default `127.0.0.1`; any other than a loopback address needs `allowRemote`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Allow listening on a non-loopback address and serving requests addressed to it. Default false. */
  allowRemote?: boolean;
  /** Host names, besides the loopback ones, that requests may be addressed to (`Host`, `Origin`); needs `allowRemote`. */
  allowedHosts?: string[];
  /** Where refused requests and serving errors are reported (at `debug` and `warn`). */
  logger?: Logger;
}

/**
 * A running HTTP endpoint.
 *
 * @group MCP
 */
export interface McpHttpEndpoint {
  /** The endpoint's URL, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stop listening and end open exchanges. */
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

/** The request body, or undefined when it is over {@link MAX_BODY_BYTES} (reading stops there). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return undefined;
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of req) {
    const part = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    length += part.length;
    if (length > MAX_BODY_BYTES) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts, length);
}

/**
 * The request as the SDK's handler reads it, with the body already read: tool arguments
 * holding a `__proto__` key are marked (see raw-arguments.ts) before the SDK's parse can
 * drop the key.
 */
function withBody(req: IncomingMessage, body: Buffer) {
  const headers = { ...req.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  return {
    method: req.method,
    url: req.url,
    headers,
    async *[Symbol.asyncIterator]() {
      yield body;
    },
  };
}

async function forward(
  serve: ReturnType<typeof toNodeHandler>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'POST') return serve(req, res);
  const body = await readBody(req);
  if (body === undefined) {
    req.resume();
    return refuse(res, 413, `Payload too large: the limit is ${MAX_BODY_BYTES} bytes`, { connection: 'close' });
  }
  return serve(withBody(req, markProtoArguments(body)), res);
}

/**
 * Serve MCP over Streamable HTTP. Every request needs `Authorization: Bearer <token>` (401
 * otherwise); requests addressed to a host other than a loopback name (or one of
 * `allowedHosts`), or sent from a web page of another origin, are refused with 403, so a
 * browser page cannot reach the server through DNS rebinding. Listening on a non-loopback
 * address is refused unless `allowRemote`.
 *
 * @example
 * ```ts
 * const endpoint = await serveMcpHttp({ server: createMcpServer({ client: memory }), token: process.env.MEMOIR_MCP_TOKEN! });
 * console.error(`MCP on ${endpoint.url}`);
 * ```
 *
 * @param options - The server factory, the token and where to listen.
 * @returns The endpoint, once it listens.
 * @group MCP
 */
export async function serveMcpHttp(options: ServeMcpHttpOptions): Promise<McpHttpEndpoint> {
  const parsed = parseOptions(optionsSchema, options, 'mcp-http', 'Pass serveMcpHttp({ server, token }).');
  // The same guard as every loopback HTTP door (bind address, Host/Origin, token).
  const guard = createHttpGuard({
    component: 'mcp-http',
    token: parsed.token,
    host: parsed.host,
    allowRemote: parsed.allowRemote,
    allowedHosts: parsed.allowedHosts,
  });
  const handler = createMcpHandler(options.server, {
    onerror: (error) => parsed.logger?.log('debug', `mcp http: ${error.message}`),
  });
  const serve = toNodeHandler(handler, {
    onerror: (error) => parsed.logger?.log('warn', `mcp http: ${error.message}`),
  });

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const refusal = guard.checkAddressing(req);
    if (refusal) return refuse(res, refusal.status, refusal.message);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== parsed.path) return refuse(res, 404, `Not found: the MCP endpoint is ${parsed.path}`);
    if (!guard.isBearer(req.headers.authorization)) {
      return refuse(res, 401, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
    }
    forward(serve, req, res).catch((error: unknown) => {
      parsed.logger?.log('warn', `mcp http: ${(error as Error).message}`);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.end();
    });
  };

  const http: HttpServer = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(parsed.port, parsed.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : parsed.port;
  return {
    url: `http://${urlHost(parsed.host)}:${port}${parsed.path}`,
    port,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
