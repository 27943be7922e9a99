import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, tempDir } from '../helpers/stores.js';
import { bin, childEnvironment, dataOf, eventually } from './mcp-harness.js';

// Seed 001: "retention policy is 30 days, cleanup schedule is daily at 3 AM". A long-running
// `memoir mcp` runs cleanup at the time its schedule setting names (here the next minute, as
// `M H * * *`), backs up first, and keeps what someone chose to keep. The real server, the
// official client, a SQLite file. Up to a minute of waiting: the schedule has minutes, not seconds.

const DAY = 86_400_000;
const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

describe('memoir mcp follows the cleanup schedule', () => {
  it('runs cleanup at the scheduled minute: old captures go, a bookmark stays, a backup is made first', async () => {
    // Leave at least 10 s before the minute turns, so the server is up before its run is due.
    if (new Date().getSeconds() > 50) await new Promise((resolve) => setTimeout(resolve, 11_000));
    const due = new Date(Date.now() + 60_000);
    const home = tempDir('memoir-mcp-schedule-');
    const seeding = createMemory({
      home,
      store: createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet }),
      clock: createFixedClock(Date.now() - 40 * DAY),
      logger: quiet,
    });
    const { ids } = await seeding.retain([
      { content: 'mouse_click(500, 300) succeeded', metadata: { captured: true } },
      { content: 'bank login filled', metadata: { captured: true, bookmarked: true } },
      { content: 'Peter prefers concise replies.' },
    ]);
    await seeding.close();

    const client = new Client({ name: 'memoir-tests', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp'],
        env: childEnvironment({
          MEMOIR_HOME: home,
          MEMOIR_MCP_TOOLS: 'all',
          MEMOIR_SCHEDULE_CLEANUP: `${due.getMinutes()} ${due.getHours()} * * *`,
        }),
      }),
    );
    open.push(client);
    const listed = async () =>
      dataOf<{ memories: Array<{ id: string }> }>(
        (await client.callTool({ name: 'memory_list', arguments: {} })) as CallToolResult,
      ).memories.map((memory) => memory.id);
    expect(await listed()).toHaveLength(3);

    const left = await eventually(listed, (memories) => memories.length === 2, 100_000);
    expect(left.sort()).toEqual([ids[1], ids[2]].sort());
    expect(Date.now()).toBeGreaterThanOrEqual(due.getTime() - due.getSeconds() * 1000 - due.getMilliseconds());
    expect(readdirSync(join(home, 'backups')).some((name) => name.includes('auto-before-cleanup'))).toBe(true);
  }, 150_000);
});
