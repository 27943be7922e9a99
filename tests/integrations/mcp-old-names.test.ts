import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// The old argument name docs/vocabulary.md promises over MCP (`top_k` for `k`) on every tool
// that takes `k`, through `memoir mcp` and the official client: the call runs as with `k`,
// and the result's text names the new argument.

let server: McpConnection;
beforeAll(async () => {
  server = await connectMemoirMcp({ home: tempDir('memoir-mcp-old-names-'), tools: 'all' });
  for (const content of [
    'The deploy runs on Fridays.',
    'The deploy needs a review.',
    'The deploy uses the release branch.',
  ]) {
    dataOf(await server.call('memory_store', { content }));
  }
}, 90_000);
afterAll(async () => {
  await server?.close();
});

const NOTE = 'top_k is now k';

describe('top_k over MCP', { timeout: 60_000 }, () => {
  it('memory_search and memory_recall take top_k as k', async () => {
    const search = await server.call('memory_search', { query: 'deploy', top_k: 2 });
    expect(search.isError, textOf(search)).toBeFalsy();
    expect((dataOf<{ results: unknown[] }>(search).results ?? []).length).toBe(2);
    expect(textOf(search)).toContain(NOTE);
    const recall = await server.call('memory_recall', { query: 'deploy', top_k: 1 });
    expect(recall.isError, textOf(recall)).toBeFalsy();
    expect(textOf(recall)).toContain(NOTE);
    const both = await server.call('memory_search', { query: 'deploy', top_k: 1, k: 2 });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('top_k is the old name of k');
  });

  it('memory_suggest, memory_find_procedures and memory_recall_steps take top_k as k', async () => {
    for (const [tool, args] of [
      ['memory_suggest', { context: 'deploy the app' }],
      ['memory_find_procedures', { request: 'deploy the app' }],
    ] as const) {
      const result = await server.call(tool, { ...args, top_k: 1 });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result), tool).toContain(NOTE);
    }
    // No recordings service here: the call gets past its arguments to the tool's own refusal.
    const steps = await server.call('memory_recall_steps', { query: 'add an SSH key on GitHub', top_k: 1 });
    expect(textOf(steps)).not.toMatch(/top_k|unknown field/);
    expect(textOf(steps)).toMatch(/video/);
  });
});
