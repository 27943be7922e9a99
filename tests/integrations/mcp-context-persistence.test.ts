import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, tempDir } from '../helpers/stores.js';
import { bin, childEnvironment, dataOf, eventually, handsServer, textOf } from './mcp-harness.js';

// Seed 001 over MCP, with the official client and the real `memoir mcp` on a SQLite file:
// a client names its session so `--capture-exclude 'banking_*'` can match it, resuming an id
// never used starts it, and the retention and deduplication policies are tools that are dry
// runs unless confirmed.

const DAY = 86_400_000;
const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

async function serve(home: string, args: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...args],
    // Every tool set, where the server serves sets.
    env: childEnvironment({ MEMOIR_HOME: home, MEMOIR_MCP_TOOLS: 'all' }),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memoir-tests', version: '1' });
  await client.connect(transport);
  open.push(client);
  return async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
}

interface Listed {
  memories: Array<{ id: string; sessionId: string | null; metadata: Record<string, unknown> }>;
}

describe('memoir mcp: context persistence', () => {
  it('a client names its session; --capture-exclude banking_* then keeps a banking session’s calls out', async () => {
    const call = await serve(tempDir('memoir-mcp-sessions-'), [
      '--capture',
      '--capture-interval',
      '0',
      '--capture-exclude',
      'banking_*',
      '--wrap',
      '--',
      process.execPath,
      handsServer,
    ]);
    const started = await call('memory_start_session', { name: 'banking_2026' });
    expect(dataOf<{ session: { id: string }; started: boolean }>(started)).toMatchObject({
      session: { id: 'banking_2026' },
      started: true,
    });
    await call('mouse_click', { x: 500, y: 300 });

    // session_id is name's other spelling; two different ones are refused, naming the field.
    const both = await call('memory_start_session', { name: 'a', session_id: 'b' });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toMatch(/session_id/);
    expect(
      dataOf<{ session: { id: string } }>(await call('memory_start_session', { session_id: 'banking_2026' })),
    ).toMatchObject({
      session: { id: 'banking_2026' },
    });
    await call('mouse_click', { x: 501, y: 300 });

    // An id never used before: resume starts it rather than refusing.
    const resumed = await call('memory_resume_session', { session_id: 'work_2026' });
    expect(textOf(resumed)).toContain('started it');
    await call('mouse_click', { x: 10, y: 20 });

    const stored = await eventually(
      async () => dataOf<Listed>(await call('memory_list', { type: 'action' })).memories,
      (memories) => memories.length >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const all = dataOf<Listed>(await call('memory_list', {})).memories;
    expect(all.map((memory) => memory.sessionId)).toEqual(['work_2026']);
    expect(stored[0]!.metadata.parameters).toEqual({ x: 10, y: 20 });
    const sessions = dataOf<{ current: string; sessions: Array<{ id: string }> }>(await call('memory_list_sessions'));
    expect(sessions.current).toBe('work_2026');
    expect(sessions.sessions.map((session) => session.id)).not.toContain('banking_2026');
  }, 60_000);

  it('memory_cleanup and memory_consolidate are dry runs unless confirmed, and never delete a bookmark', async () => {
    const home = tempDir('memoir-mcp-maintenance-');
    const seeding = createMemory({
      home,
      store: createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet }),
      clock: createFixedClock(Date.now() - 45 * DAY),
      logger: quiet,
    });
    const screen = 'Login screen of the staging console with user and password fields';
    const { ids } = await seeding.retain([
      { content: 'mouse_click(500, 300) succeeded', metadata: { captured: true } },
      { content: 'bank login filled', metadata: { captured: true, bookmarked: true } },
      { content: screen, category: 'screen' },
      { content: `${screen}.`, category: 'screen' },
    ]);
    await seeding.close();
    const call = await serve(home, []);

    const dry = await call('memory_cleanup');
    expect(textOf(dry)).toContain('Dry run: 1 memory would be deleted');
    expect(textOf(dry)).toContain(ids[0]);
    expect(dataOf<{ dryRun: boolean; ids: string[] }>(dry)).toMatchObject({ dryRun: true, ids: [ids[0]] });
    expect(dataOf<{ count: number }>(await call('memory_list', {})).count).toBe(4);

    const done = dataOf<{ dryRun: boolean; deleted: number }>(await call('memory_cleanup', { confirm: true }));
    expect(done).toMatchObject({ dryRun: false, deleted: 1 });

    const planned = dataOf<{ dryRun: boolean; ids: string[]; kept: string[] }>(await call('memory_consolidate'));
    expect(planned.dryRun).toBe(true);
    expect([...planned.ids, ...planned.kept].sort()).toEqual([ids[2], ids[3]].sort());
    expect(planned.ids).toHaveLength(1);
    expect(dataOf<{ count: number }>(await call('memory_list', {})).count).toBe(3);
    const merged = dataOf<{ deleted: number }>(await call('memory_consolidate', { confirm: true }));
    expect(merged.deleted).toBe(1);
    const left = dataOf<Listed>(await call('memory_list', {})).memories.map((memory) => memory.id);
    expect(left.sort()).toEqual([ids[1], ...planned.kept].sort());
  }, 60_000);
});
