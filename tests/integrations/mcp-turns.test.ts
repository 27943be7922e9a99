import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// An agent storing a conversation turn by turn over MCP (the official client against the real
// `memoir mcp`, a SQLite home) gets each turn indexed with the turns stored around it, and can
// recall a turn with its neighbours as one result.

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe('conversation turns over MCP', { timeout: 90_000 }, () => {
  it('memory_retain with session_id windows turns across calls; memory_recall expand: "window" folds them', async () => {
    const server = await connectMemoirMcp({ home: tempDir('memoir-mcp-turns-') });
    open.push(server);
    const turns = [
      'Maya: We should book the cabin for the long weekend.',
      'assistant: Which cabin do you mean?',
      'Maya: The one by Lake Bled with the wood stove.',
    ];
    const ids: string[] = [];
    for (const content of turns) {
      ids.push(dataOf<{ id: string }>(await server.call('memory_retain', { content, session_id: 'trip-chat' })).id);
    }
    // The first turn is found by what was said after it, in a later call.
    const first = dataOf<{ memory: { metadata: { turn?: number } } }>(
      await server.call('memory_get', { memory_id: ids[0]! }),
    );
    expect(first.memory.metadata.turn).toBe(0);
    const found = dataOf<{ results: Array<{ id: string }> }>(
      await server.call('memory_recall', { query: 'Lake Bled wood stove', k: 3, format: 'list' }),
    );
    expect(found.results.map((result) => result.id)).toContain(ids[0]);
    const recalled = textOf(await server.call('memory_recall', { query: 'wood stove cabin', k: 3, expand: 'window' }));
    const block = recalled.slice(recalled.indexOf('<memories>'), recalled.indexOf('</memories>'));
    expect(block.match(/<memory /g)).toHaveLength(1);
    expect(block.indexOf('long weekend')).toBeLessThan(block.indexOf('Lake Bled'));
    const refused = await server.call('memory_recall', { query: 'cabin', expand: 'chapter' });
    expect(refused.isError).toBe(true);
  });
});
