import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { bin, childEnvironment, dataOf } from './mcp-harness.js';

// `memoir mcp --http`: Streamable HTTP on loopback behind a bearer token, reached with the
// official client; requests without the token, or addressed to another host, are refused.

const run = promisify(execFile);
const TOKEN = 'test-token-0123456789abcdef';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Start `memoir mcp --http` and resolve to its endpoint URL once it prints it. */
function serve(home: string): Promise<string> {
  const child = spawn(process.execPath, [bin, 'mcp', '--tools', 'all', '--http', '--port', '0', '--token', TOKEN], {
    env: childEnvironment({ MEMOIR_HOME: home }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const url = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`memoir mcp exited with ${code}: ${stderr}`)));
  });
}

/** A raw POST with chosen headers; resolves to the status. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function connect(url: string, modern: boolean): Promise<Client> {
  const client = new Client(
    { name: 'memoir-tests-http', version: '1' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  return client;
}

describe('memoir mcp --http', { timeout: 90_000 }, () => {
  it('refuses requests without the token or for another host, and serves the official client with it', async () => {
    const url = await serve(tempDir('memoir-mcp-http-'));
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { authorization: 'Bearer not-the-token-at-all' })).toBe(401);
    expect(await post(url, { ...bearer, host: 'attacker.example' })).toBe(403);
    expect(await post(url, { ...bearer, origin: 'https://attacker.example' })).toBe(403);
    expect(await post(url.replace('/mcp', '/other'), bearer)).toBe(404);

    for (const modern of [false, true]) {
      const client = await connect(url, modern);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(modern ? '2026-07-28' : '2025-11-25');
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('memory_retain');
        const stored = (await client.callTool({
          name: 'memory_retain',
          arguments: { content: `Stored over HTTP (${modern ? 'modern' : '2025'} handshake).` },
        })) as CallToolResult;
        expect(dataOf<{ stored: boolean }>(stored).stored).toBe(true);
      } finally {
        await client.close();
      }
    }
    const client = await connect(url, false);
    try {
      const listed = (await client.callTool({
        name: 'memory_list',
        arguments: { session_id: 'current' },
      })) as CallToolResult;
      // Every request of the run shares the session generated when the server started.
      expect(dataOf<{ count: number }>(listed).count).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('refuses a __proto__ key in tool arguments with the ValidationError, and keeps export inside the home', async () => {
    const home = tempDir('memoir-mcp-http-');
    const url = await serve(home);
    for (const modern of [false, true]) {
      const client = await connect(url, modern);
      try {
        for (const raw of [
          '{"content": "Top-level proto over HTTP.", "__proto__": {"metadata": {"a": 1}}}',
          '{"content": "Metadata proto over HTTP.", "metadata": {"__proto__": {"polluted": true}}}',
        ]) {
          const result = (await client.callTool({
            name: 'memory_retain',
            arguments: JSON.parse(raw) as Record<string, unknown>,
          })) as CallToolResult;
          expect(result.isError, raw).toBe(true);
          const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
          expect(text).toMatch(/^memory_retain: (metadata\.)?__proto__: the key "__proto__" is not allowed/);
        }
        const escaped = (await client.callTool({
          name: 'memory_export',
          arguments: { name: '../../escaped' },
        })) as CallToolResult;
        expect(escaped.isError).toBe(true);
        const stats = (await client.callTool({ name: 'memory_stats', arguments: {} })) as CallToolResult;
        expect(dataOf<{ memories: number }>(stats).memories).toBe(0);
      } finally {
        await client.close();
      }
    }
  });

  it('refuses to listen on a non-loopback address unless told', async () => {
    const failed = await run(process.execPath, [bin, 'mcp', '--http', '--host', '0.0.0.0', '--token', TOKEN], {
      env: childEnvironment({ MEMOIR_HOME: tempDir('memoir-mcp-http-') }),
      encoding: 'utf8',
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed && failed.code).not.toBe(0);
    expect(failed.stderr).toContain('0.0.0.0 is not a loopback address');
    expect(failed.stderr).toContain('--allow-remote');
  });
});
