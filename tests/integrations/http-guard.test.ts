import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, createInMemoryStore, createMemory } from '../../src/index.js';
import { createHttpGuard } from '../../src/integrations/http-guard/http-guard.js';
import { createMcpServer, serveMcpHttp } from '../../src/integrations/mcp/index.js';
import { serveUi } from '../../src/integrations/ui/index.js';
import { quiet } from '../helpers/stores.js';

// The guard both loopback HTTP doors share (`memoir mcp --http`, `memoir ui`): each door,
// over real HTTP on 127.0.0.1, refuses a request without the token, with a wrong one, addressed
// to a foreign Host, or sent from a page of a foreign Origin — and answers the right one.

const TOKEN = 'guard-test-token-0123456789';

interface Exchange {
  status: number;
  body: string;
  setCookie: string | undefined;
}

/** One raw request with chosen headers (fetch cannot set Host). */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text, setCookie: res.headers['set-cookie']?.[0] }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Door {
  name: string;
  /** A request to the door's endpoint with the given auth and extra headers. */
  call(auth: 'none' | 'wrong' | 'right', headers?: Record<string, string>): Promise<Exchange>;
  /** The status of an authorised, well-addressed request. */
  ok: number;
}

const client = createMemory({ store: createInMemoryStore(), logger: quiet });
const doors: Door[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const mcp = await serveMcpHttp({ server: createMcpServer({ client, version: '0.0.0' }), token: TOKEN });
  closers.push(() => mcp.close());
  const port = new URL(mcp.url).port;
  doors.push({
    name: 'mcp --http',
    ok: 200,
    call: (auth, headers = {}) =>
      send(
        mcp.url,
        'POST',
        {
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(auth === 'none' ? {} : { authorization: `Bearer ${auth === 'right' ? TOKEN : `${TOKEN}x`}` }),
          ...headers,
        },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      ),
  });
  const ui = await serveUi({ client, token: TOKEN });
  closers.push(() => ui.close());
  doors.push({
    name: 'ui',
    ok: 200,
    call: (auth, headers = {}) =>
      send(`${ui.address}/memories`, 'GET', {
        host: `127.0.0.1:${ui.port}`,
        ...(auth === 'none' ? {} : { authorization: `Bearer ${auth === 'right' ? TOKEN : `${TOKEN.slice(0, -1)}X`}` }),
        ...headers,
      }),
  });
});

afterAll(async () => {
  for (const close of closers) await close();
  await client.close();
});

describe('the shared loopback guard', () => {
  it.each(['mcp --http', 'ui'])('%s answers a request with the token, addressed to 127.0.0.1', async (name) => {
    const door = doors.find((each) => each.name === name)!;
    expect((await door.call('right')).status).toBe(door.ok);
    expect((await door.call('right', { host: `localhost:1`, origin: 'http://localhost:1' })).status).toBe(door.ok);
  });

  it.each(['mcp --http', 'ui'])('%s refuses a request without the token, or with a wrong one', async (name) => {
    const door = doors.find((each) => each.name === name)!;
    expect((await door.call('none')).status).toBe(401);
    expect((await door.call('wrong')).status).toBe(401);
  });

  it.each(['mcp --http', 'ui'])('%s refuses a foreign Host and a foreign Origin, even with the token', async (name) => {
    const door = doors.find((each) => each.name === name)!;
    expect((await door.call('right', { host: 'attacker.example:80' })).status).toBe(403);
    expect((await door.call('right', { host: '127.0.0.1.attacker.example' })).status).toBe(403);
    expect((await door.call('right', { origin: 'http://attacker.example' })).status).toBe(403);
    expect((await door.call('right', { origin: 'null' })).status).toBe(403);
  });

  it('refuses to listen on a non-loopback address unless remote serving is allowed', () => {
    expect(() => createHttpGuard({ component: 'ui', token: TOKEN, host: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => createHttpGuard({ component: 'ui', token: TOKEN, host: '127.0.0.2' })).not.toThrow();
    expect(() => createHttpGuard({ component: 'ui', token: 'short' })).toThrow(/token/);
  });

  it('the web view trades the token in its URL for a cookie and refuses a POST without the CSRF value', async () => {
    const ui = await serveUi({ client, token: TOKEN });
    try {
      // On the view's own name, as a browser that opened the printed URL addresses it.
      const own = `${ui.hostName}:${ui.port}`;
      const first = await send(`${ui.address}/?token=${TOKEN}`, 'GET', { host: own });
      expect(first.status).toBe(303);
      const cookie = first.setCookie!.split(';')[0]!;
      expect((await send(`${ui.address}/memories`, 'GET', { host: own, cookie })).status).toBe(200);
      const post = await send(
        `${ui.address}/health/doctor`,
        'POST',
        { host: own, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        'csrf=wrong',
      );
      expect(post.status).toBe(403);
    } finally {
      await ui.close();
    }
  });
});
