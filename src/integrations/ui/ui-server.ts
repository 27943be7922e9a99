/**
 * The web view's server: node:http, a small route table, pages rendered on the server. It
 * listens on a loopback address behind the guard `memoir mcp --http` uses (Host, Origin,
 * token), under a host name of its own (`memoir-<random>.localhost`, see ui-auth.ts); the token
 * comes once in the printed URL, then a value derived from it in an HttpOnly, SameSite=Strict
 * cookie, host-only on that name, and every change is a POST carrying a CSRF value derived from it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { sameScope } from '../../core/spec/memory.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import {
  ConfigError,
  type Logger,
  type MemoryClient,
  NotFoundError,
  type Scope,
  ValidationError,
} from '../../index.js';
import { createHttpGuard, urlHost } from '../http-guard/http-guard.js';
import { UI_CSS, UI_JS } from './ui-assets.js';
import {
  authorize,
  COOKIE_NAME,
  cookieValueFor,
  csrfFor,
  sameText,
  type ViewAddress,
  viewHostName,
} from './ui-auth.js';
import { bulkForget } from './ui-bulk-forget.js';
import { scopeFrom, type UiRequest, type UiState } from './ui-context.js';
import { html } from './ui-html.js';
import { createLatencyLog } from './ui-latency.js';
import { layout } from './ui-layout.js';
import { coreEdit, corePage } from './ui-page-core.js';
import { healthPage, runDoctor, runStats } from './ui-page-health.js';
import { memoriesPage } from './ui-page-memories.js';
import { ACTIONS, memoryAction, memoryPage, type PageResult, type UndoLog } from './ui-page-memory.js';
import { opinionPage, opinionsPage } from './ui-page-opinions.js';
import {
  entitiesPage,
  entityPage,
  procedurePage,
  proceduresPage,
  recordingsPage,
  sessionsPage,
} from './ui-page-records.js';
import { searchPage } from './ui-page-search.js';
import { usersPage } from './ui-page-users.js';
import { dropScans } from './ui-scan.js';

/** The largest form body read; a larger one is answered 413. */
const MAX_FORM_BYTES = 2 * 1024 * 1024;

const optionsSchema = z
  .object({
    client: z.custom<MemoryClient>((value) => typeof (value as MemoryClient | undefined)?.list === 'function', {
      message: 'expected a memory client (createMemory)',
    }),
    scope: z.record(z.string(), z.string()).optional(),
    token: z.string().min(16, 'expected a token of at least 16 characters').optional(),
    host: z.string().trim().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(0),
    readOnly: z.boolean().default(false),
    logger: z.custom<Logger>((value) => typeof (value as Logger | undefined)?.log === 'function').optional(),
  })
  .strict();

/**
 * Options of {@link serveUi}.
 *
 * @group Integrations
 */
export interface ServeUiOptions {
  /** The client the view reads and changes memory through. An unscoped client makes an admin view that can switch scope. */
  client: MemoryClient;
  /** The scope the client was created with (it must be the client's own; the view shows it); absent: the client's. */
  scope?: Scope;
  /** The secret the URL carries; at least 16 characters. Default: a new random one. */
  token?: string;
  /** Loopback address to listen on. Default `127.0.0.1`; a non-loopback one is refused. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Serve pages only: no action forms, every POST refused. Default false. */
  readOnly?: boolean;
  /** Where serving errors are reported. */
  logger?: Logger;
}

/**
 * A running view.
 *
 * @group Integrations
 */
export interface UiEndpoint {
  /**
   * The URL to open in a browser, with the token: `http://memoir-1a2b3c4d5e.localhost:41234/?token=…`.
   * Browsers resolve every `*.localhost` name to this machine; the view's cookie stays with that name.
   */
  readonly url: string;
  /** The URL without the token: `http://memoir-1a2b3c4d5e.localhost:41234`. */
  readonly origin: string;
  /**
   * Where it listens, `http://127.0.0.1:41234`: for programs that do not resolve `*.localhost`
   * names, with `Authorization: Bearer <token>` (no cookie is ever set there).
   */
  readonly address: string;
  /** The view's own host name, `memoir-1a2b3c4d5e.localhost`. */
  readonly hostName: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stop listening and end open connections (the client is left open: it is the caller's). */
  close(): Promise<void>;
}

type Handler = (request: UiRequest) => Promise<PageResult>;
interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  current: string;
  handler: Handler;
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not no-referrer: under it a browser sends `Origin: null` with a form, which the guard refuses.
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (Number(req.headers['content-length']) > MAX_FORM_BYTES) return undefined;
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of req) {
    const part = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    length += part.length;
    if (length > MAX_FORM_BYTES) return undefined;
    parts.push(part);
  }
  return new URLSearchParams(Buffer.concat(parts, length).toString('utf8'));
}

/** One part of the address, decoded; a part that is not valid percent-encoding is the caller's error, not the server's. */
function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ValidationError([{ field: 'path', message: `"${part.slice(0, 80)}" is not valid percent-encoding` }], {
      component: 'ui',
    });
  }
}

/** `path` with `query` re-encoded (so it can only ever be a query of this path). */
function withQuery(path: string, query: URLSearchParams): string {
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Where a sign-in goes on to: the page asked for when it is one of the view's own pages (`pages`,
 * the paths its navigation names), else the memories.
 */
function pageAfterSignIn(url: URL, pages: ReadonlySet<string>): string {
  return withQuery(pages.has(url.pathname) ? url.pathname : '/memories', url.searchParams);
}

function plainPage(title: string, message: string): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · memoir</title><link rel="stylesheet" href="/assets/ui.css"></head><body><main id="main"><h1>${title}</h1><p>${message}</p></main></body></html>`
    .text;
}

/**
 * Serve the web view of a memory client on a loopback address. Print `url`: it carries the
 * token, which the first request trades for a cookie.
 *
 * @example
 * ```ts
 * const ui = await serveUi({ client: createMemory({ home: '~/.memoir' }) });
 * console.error(`memoir ui on ${ui.url}`);
 * ```
 *
 * @param options - The client, and where to listen.
 * @returns The endpoint, once it listens.
 * @group Integrations
 */
export async function serveUi(options: ServeUiOptions): Promise<UiEndpoint> {
  const parsed = parseOptions(optionsSchema, options, 'ui', 'Pass serveUi({ client }).');
  const token = parsed.token ?? randomBytes(24).toString('base64url');
  const hostName = viewHostName(randomBytes(5).toString('hex'));
  const guard = createHttpGuard({ component: 'ui', token, host: parsed.host, ownName: hostName });
  const client = options.client;
  // The boundary is the client's own scope, never a label beside it: an unscoped client shown as
  // one user's view would show every user's memories under that name.
  const clientScope = client.scope;
  if (options.scope !== undefined && (clientScope === undefined || !sameScope(options.scope, clientScope))) {
    throw new ConfigError("scope: expected the client's own scope (the view shows what its client can see)", {
      component: 'ui',
      field: 'scope',
      suggestion: 'Create the client with createMemory({ scope }) and pass that client; scope may then be left out.',
    });
  }
  const admin = clientScope === undefined;
  const csrf = csrfFor(token);
  const state: UiState = { latency: createLatencyLog() };
  const undoLog: UndoLog = new Map();
  const onRecall = (event: { durationMs: number }) => state.latency.add(event.durationMs);
  client.on('recall', onRecall);

  const page = (current: string, handler: Handler): Omit<Route, 'method' | 'pattern'> => ({ current, handler });
  const routes: Route[] = [
    { method: 'GET', pattern: /^\/memories$/, ...page('/memories', memoriesPage) },
    { method: 'POST', pattern: /^\/memories\/forget$/, ...page('/memories', bulkForget) },
    { method: 'GET', pattern: /^\/users$/, ...page('/users', usersPage) },
    { method: 'GET', pattern: /^\/core$/, ...page('/core', corePage) },
    { method: 'POST', pattern: /^\/core\/edit$/, ...page('/core', coreEdit) },
    { method: 'GET', pattern: /^\/memory\/([^/]+)$/, ...page('/memories', memoryPage) },
    {
      method: 'POST',
      pattern: new RegExp(`^/memory/([^/]+)/(${ACTIONS.join('|')})$`),
      ...page('/memories', (request) => memoryAction(request, undoLog)),
    },
    { method: 'GET', pattern: /^\/search$/, ...page('/search', searchPage) },
    { method: 'GET', pattern: /^\/sessions$/, ...page('/sessions', sessionsPage) },
    { method: 'GET', pattern: /^\/procedures$/, ...page('/procedures', proceduresPage) },
    { method: 'GET', pattern: /^\/procedure\/([^/]+)$/, ...page('/procedures', procedurePage) },
    { method: 'GET', pattern: /^\/recordings$/, ...page('/recordings', recordingsPage) },
    { method: 'GET', pattern: /^\/entities$/, ...page('/entities', entitiesPage) },
    { method: 'GET', pattern: /^\/entity\/([^/]+)$/, ...page('/entities', entityPage) },
    { method: 'GET', pattern: /^\/opinions$/, ...page('/opinions', opinionsPage) },
    { method: 'GET', pattern: /^\/opinion\/([^/]+)$/, ...page('/opinions', opinionPage) },
    { method: 'GET', pattern: /^\/health$/, ...page('/health', healthPage) },
    { method: 'POST', pattern: /^\/health\/doctor$/, ...page('/health', runDoctor) },
    { method: 'POST', pattern: /^\/health\/stats$/, ...page('/health', runStats) },
  ];

  // The pages a sign-in may go on to: the paths of the view's own navigation, never the request's.
  const pages = new Set(routes.map((route) => route.current));
  let port = parsed.port;
  let view: ViewAddress = { hostName, origin: '', cookie: cookieValueFor(token) };

  function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...headers });
    res.end(body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const auth = authorize(guard, req, url, view);
    if (!auth.ok) {
      req.resume();
      // The refused URL may carry a token: no page it leads to is told where it came from.
      return send(
        res,
        auth.status,
        'text/html; charset=utf-8',
        plainPage(auth.status === 401 ? 'Unauthorized' : 'Forbidden', auth.message),
        { 'referrer-policy': 'no-referrer' },
      );
    }
    if (auth.viaQuery) {
      // Trade the token in the URL for the cookie (host-only: no Domain), and drop it from the
      // address bar and history. The page to go on to is one of the view's own, never the path
      // as the request spelled it (`/.//evil.test/x` would be `//evil.test/x`, another site).
      url.searchParams.delete('token');
      const cookie = `${COOKIE_NAME}=${view.cookie}; HttpOnly; SameSite=Strict; Path=/`;
      req.resume();
      return send(res, 303, 'text/plain; charset=utf-8', '', {
        location: pageAfterSignIn(url, pages),
        'set-cookie': cookie,
        'referrer-policy': 'no-referrer',
      });
    }
    if (req.method === 'GET' && url.pathname === '/') {
      return send(res, 303, 'text/plain; charset=utf-8', '', { location: withQuery('/memories', url.searchParams) });
    }
    if (req.method === 'GET' && url.pathname === '/assets/ui.css')
      return send(res, 200, 'text/css; charset=utf-8', UI_CSS);
    if (req.method === 'GET' && url.pathname === '/assets/ui.js')
      return send(res, 200, 'text/javascript; charset=utf-8', UI_JS);

    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const matching = routes.filter((route) => route.pattern.test(url.pathname));
    const route = matching.find((candidate) => candidate.method === method);
    if (!route) {
      req.resume();
      if (matching.length > 0) {
        return send(
          res,
          405,
          'text/html; charset=utf-8',
          plainPage('Method not allowed', `Use ${matching.map((each) => each.method).join(' or ')}.`),
          {
            allow: matching.map((each) => each.method).join(', '),
          },
        );
      }
      return send(res, 404, 'text/html; charset=utf-8', plainPage('Not found', `There is no page at ${url.pathname}.`));
    }

    let input = url.searchParams;
    if (route.method === 'POST') {
      if (parsed.readOnly) {
        req.resume();
        return send(
          res,
          403,
          'text/html; charset=utf-8',
          plainPage('Read-only', 'This view was started with --read-only: nothing can be changed.'),
        );
      }
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/x-www-form-urlencoded') {
        req.resume();
        return send(res, 415, 'text/html; charset=utf-8', plainPage('Unsupported', 'Changes are sent as forms.'));
      }
      const form = await readForm(req);
      if (form === undefined) {
        req.resume();
        return send(
          res,
          413,
          'text/html; charset=utf-8',
          plainPage('Too large', `A form may hold at most ${MAX_FORM_BYTES} bytes.`),
          { connection: 'close' },
        );
      }
      if (!sameText(form.get('csrf') ?? '', csrf)) {
        return send(
          res,
          403,
          'text/html; charset=utf-8',
          plainPage('Forbidden', 'The form is missing its CSRF value: reload the page and try again.'),
        );
      }
      input = form;
    }

    const params = (route.pattern.exec(url.pathname) ?? []).slice(1).map(decodePathPart);
    const request: UiRequest = {
      client,
      admin,
      readOnly: parsed.readOnly,
      // A scoped view never takes a scope from the request: its client's scope is the boundary.
      viewScope: admin ? scopeFrom(input) : undefined,
      params,
      input,
      csrf,
      state,
    };
    const result = await route.handler(request);
    // A change made through the view shows at once: passes kept for sorting and counting are dropped.
    if (route.method === 'POST') dropScans(request);
    if ('redirect' in result) return send(res, 303, 'text/plain; charset=utf-8', '', { location: result.redirect });
    const body = layout(request, { title: result.title, current: route.current, body: result.body, clientScope });
    return send(res, 200, 'text/html; charset=utf-8', req.method === 'HEAD' ? '' : body.text);
  }

  function failure(res: ServerResponse, error: unknown) {
    if (res.headersSent) return res.end();
    if (NotFoundError.isInstance(error))
      return send(
        res,
        404,
        'text/html; charset=utf-8',
        plainPage('Not found', error.message.replace(/^\[memoir\] /, '')),
      );
    if (ValidationError.isInstance(error) || ConfigError.isInstance(error)) {
      const text = `${error.message.replace(/^\[memoir\] /, '')}${error.suggestion ? ` ${error.suggestion}` : ''}`;
      return send(res, 400, 'text/html; charset=utf-8', plainPage('Not accepted', text));
    }
    parsed.logger?.log('warn', `ui: ${(error as Error)?.message ?? String(error)}`);
    return send(
      res,
      500,
      'text/html; charset=utf-8',
      plainPage('Something went wrong', (error as Error)?.message ?? String(error)),
    );
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => failure(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(parsed.port, parsed.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address();
  port = typeof bound === 'object' && bound !== null ? bound.port : parsed.port;
  view = { ...view, origin: `http://${hostName}:${port}` };
  return {
    url: `${view.origin}/?token=${encodeURIComponent(token)}`,
    origin: view.origin,
    address: `http://${urlHost(parsed.host)}:${port}`,
    hostName,
    port,
    async close() {
      client.off('recall', onRecall);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
