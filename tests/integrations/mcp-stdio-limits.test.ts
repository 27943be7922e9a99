import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { bin, childEnvironment } from './mcp-harness.js';

// `memoir mcp` on stdio, spoken to line by line as a raw JSON-RPC peer: the official client
// cannot send a message larger than the server accepts, which is the point here. A message
// over the limit (16 MiB) is refused on its own; the server keeps serving the next one.

interface Peer {
  child: ChildProcessWithoutNullStreams;
  /** The next message the server writes that answers `id`. */
  answer(id: number | string): Promise<Record<string, unknown>>;
  send(line: string | Buffer): Promise<void>;
  stderr(): string;
  exited(): boolean;
}

const peers: Peer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) {
    if (peer.exited()) continue;
    peer.child.stdin.end();
    peer.child.kill();
    await once(peer.child, 'exit');
  }
});

function startPeer(home: string): Peer {
  const child = spawn(process.execPath, [bin, 'mcp', '--tools', 'all'], {
    env: childEnvironment({ MEMOIR_HOME: home }),
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  let pending = '';
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line) messages.push(JSON.parse(line) as Record<string, unknown>);
      newline = pending.indexOf('\n');
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const peer: Peer = {
    child,
    stderr: () => stderr,
    exited: () => exited,
    async answer(id) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const found = messages.find((message) => message.id === id);
        if (found) return found;
        if (exited) throw new Error(`the server exited before answering ${id}; stderr: ${stderr.slice(-2000)}`);
        if (Date.now() > deadline) throw new Error(`no answer to ${id}; stderr: ${stderr.slice(-2000)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    async send(line) {
      if (!child.stdin.write(line)) await once(child.stdin, 'drain');
    },
  };
  peers.push(peer);
  return peer;
}

async function initialize(peer: Peer): Promise<void> {
  await peer.send(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-peer', version: '1' } },
    })}\n`,
  );
  expect((await peer.answer(0)).result).toBeDefined();
  await peer.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
}

const call = (id: number, name: string, args: Record<string, unknown>) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** A tools/call line of about `bytes` bytes, its id after the huge argument (so only a streaming look finds it). */
function hugeCall(id: number, bytes: number): Buffer {
  const head = Buffer.from(
    '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"memory_retain","arguments":{"content":"',
  );
  const tail = Buffer.from(`"}},"id":${id}}\n`);
  return Buffer.concat([head, Buffer.alloc(bytes, 'a'), tail]);
}

describe('memoir mcp on stdio, with messages over the size limit', { timeout: 180_000 }, () => {
  it('refuses a 64 MiB line with a JSON-RPC error for its id and answers the next request', async () => {
    const peer = startPeer(tempDir('memoir-mcp-stdio-'));
    await initialize(peer);
    await peer.send(hugeCall(7, 64 * 1024 * 1024));
    await peer.send(call(8, 'memory_retain', { content: 'Served after the huge message.' }));
    const refused = await peer.answer(7);
    expect(refused.error).toMatchObject({ code: -32600 });
    expect((refused.error as { message: string }).message).toMatch(/too large.*16 MiB/i);
    const next = await peer.answer(8);
    expect(next.error).toBeUndefined();
    expect(JSON.stringify(next.result)).toContain('Stored memory');
    expect(peer.exited()).toBe(false);

    // The id first, as a string, with decoy "id" keys and escaped quotes inside the huge part.
    const decoys = Buffer.from(
      '{"jsonrpc":"2.0","id":"first \\"one\\"","method":"tools/call","params":{"id":99,"name":"memory_retain","arguments":{"content":"\\"id\\":5,',
    );
    await peer.send(Buffer.concat([decoys, Buffer.alloc(17 * 1024 * 1024, 'c'), Buffer.from('"}}}\n')]));
    await peer.send(call(11, 'memory_stats', {}));
    expect((await peer.answer('first "one"')).error).toMatchObject({ code: -32600 });
    expect((await peer.answer(11)).result).toBeDefined();
    expect(peer.exited()).toBe(false);
  });

  it('answers a deeply nested message with a tool error and a __proto__ argument with a ValidationError, and keeps serving', async () => {
    const peer = startPeer(tempDir('memoir-mcp-stdio-'));
    await initialize(peer);
    const depth = 200_000;
    const deep = `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"memory_retain","arguments":{"content":"deep","metadata":{"d":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}}\n`;
    await peer.send(deep);
    const nested = await peer.answer(12);
    expect(JSON.stringify(nested)).toMatch(/memory_retain: metadata\.d\.a.*expected at most 64 levels of nesting/);
    expect(JSON.stringify(nested)).not.toMatch(/RangeError|call stack/i);
    await peer.send(
      '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"memory_retain","arguments":{"content":"x","__proto__":{"metadata":{"a":1}}}}}\n',
    );
    const proto = await peer.answer(13);
    expect(JSON.stringify(proto.result)).toMatch(/memory_retain: __proto__: the key \\"__proto__\\" is not allowed/);
    expect((proto.result as { isError?: boolean }).isError).toBe(true);
    await peer.send(call(14, 'memory_stats', {}));
    expect(JSON.stringify((await peer.answer(14)).result)).toMatch(/^.*0 memories/);
  });

  it('logs an over-long notification on stderr, and serves a message just under the limit', async () => {
    const peer = startPeer(tempDir('memoir-mcp-stdio-'));
    await initialize(peer);
    const notification = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"notifications/progress","params":{"junk":"'),
      Buffer.alloc(20 * 1024 * 1024, 'b'),
      Buffer.from('"}}\n'),
    ]);
    await peer.send(notification);
    // 12 MiB: above the SDK's own 10 MB buffer, below memoir's 16 MiB limit; refused by the tool (content too long), not the transport.
    await peer.send(hugeCall(9, 12 * 1024 * 1024));
    await peer.send(call(10, 'memory_stats', {}));
    const big = await peer.answer(9);
    expect(big.error).toBeUndefined();
    expect(JSON.stringify(big.result)).toMatch(/content/);
    expect((await peer.answer(10)).result).toBeDefined();
    expect(peer.stderr()).toMatch(/discarded a message of \d+ bytes/);
  });
});
