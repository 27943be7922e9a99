import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory } from '../../src/index.js';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// memory_get's tier (seed 002: L0 abstract, L1 overview, L2 content) through the real
// `memoir mcp` and the official MCP client, on a SQLite home the library wrote first — as a
// conversation extracted with a model leaves it: three tiers per memory.

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

const ABSTRACT = 'Deploys of the billing service need a feature flag.';
const OVERVIEW = '## Rule\n- billing deploys go behind a flag\n## Why\n- the March outage';
const CONTENT =
  'After the March outage the team agreed that every deploy of the billing service ships behind a feature flag, turned on by the on-call engineer once the canary is green.';

async function seededHome(): Promise<{ home: string; tiered: string; plain: string }> {
  const home = tempDir('memoir-mcp-tiers-');
  const memory = createMemory({ store: createSqliteStore({ path: join(home, 'memoir.sqlite') }) });
  const { ids } = await memory.retain([
    { content: CONTENT, abstract: ABSTRACT, overview: OVERVIEW, category: 'patterns' },
    { content: 'The staging cluster is called kiwi.' },
  ]);
  await memory.close();
  return { home, tiered: ids[0]!, plain: ids[1]! };
}

describe('memory_get over MCP', { timeout: 90_000 }, () => {
  it('shows L0, L1 or L2 as asked, under either name, and says when a tier is not stored', async () => {
    const { home, tiered, plain } = await seededHome();
    const server = await connectMemoirMcp({ home });
    open.push(server);

    const { tools } = await server.client.listTools();
    const schema = tools.find((tool) => tool.name === 'memory_get')?.inputSchema as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(schema.properties.tier?.enum).toEqual(['L0', 'L1', 'L2', 'abstract', 'overview', 'content']);

    const l0 = await server.call('memory_get', { memory_id: tiered, tier: 'L0' });
    expect(textOf(l0)).toContain(`L0 abstract: ${ABSTRACT}`);
    expect(textOf(l0)).not.toContain('## Rule');
    expect(textOf(l0)).not.toContain('canary');
    // The tiers above the one asked for are not sent as data either.
    const l0Data = dataOf<{ tier: string; memory: Record<string, unknown> }>(l0);
    expect(l0Data.tier).toBe('abstract');
    expect(l0Data.memory).toMatchObject({ id: tiered, abstract: ABSTRACT });
    expect(l0Data.memory).not.toHaveProperty('content');
    expect(l0Data.memory).not.toHaveProperty('overview');

    const l1 = await server.call('memory_get', { memory_id: tiered, tier: 'L1' });
    expect(textOf(l1)).toContain(`L1 overview: ${OVERVIEW}`);
    expect(textOf(l1)).not.toContain('canary');
    expect(dataOf<{ memory: Record<string, unknown> }>(l1).memory).toMatchObject({ overview: OVERVIEW });
    expect(textOf(await server.call('memory_get', { memory_id: tiered, tier: 'overview' }))).toBe(textOf(l1));

    const l2 = await server.call('memory_get', { memory_id: tiered });
    expect(textOf(l2)).toContain(CONTENT);
    expect(dataOf<{ memory: Record<string, unknown> }>(l2).memory).toMatchObject({
      content: CONTENT,
      overview: OVERVIEW,
    });
    expect(textOf(await server.call('memory_get', { memory_id: tiered, tier: 'L2' }))).toBe(textOf(l2));

    const missing = await server.call('memory_get', { memory_id: plain, tier: 'L1' });
    expect(textOf(missing)).toContain('(no L1 overview is stored for it; its L2 content instead)');
    expect(textOf(missing)).toContain('The staging cluster is called kiwi.');

    const bad = await server.call('memory_get', { memory_id: tiered, tier: 'L3' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/tier/);
  });
});
