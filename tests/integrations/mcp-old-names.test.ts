import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// The old names docs/vocabulary.md promises over MCP, through `memoir mcp` and the official
// client: the argument `top_k` for `k` on every tool that takes `k`, `type` for `category`; and
// the tools `memory_store`, `memory_search` and `memory_recall_steps`, no longer listed, which
// answer as `memory_retain`, `memory_recall` (format "list") and
// `memory_procedures_from_recording`. Each call runs as with the new name, and the result's text
// names the new one.

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

describe('old tool names over MCP', { timeout: 60_000 }, () => {
  it('memory_store answers as memory_retain, and type as category; the text names both new names', async () => {
    const stored = await server.call('memory_store', { content: 'The staging deploy needs a VPN.', type: 'workflow' });
    expect(stored.isError, textOf(stored)).toBeFalsy();
    expect(dataOf<{ memory: { category: string } }>(stored).memory.category).toBe('workflow');
    expect(textOf(stored)).toContain('memory_store is now memory_retain (memory_store still works for now)');
    expect(textOf(stored)).toContain('type is now category');
    const listed = await server.call('memory_list', { type: 'workflow' });
    expect(dataOf<{ count: number }>(listed).count).toBe(1);
    expect(textOf(listed)).toContain('type is now category');
  });

  it('memory_search answers as memory_recall with format "list", one line per memory with its score', async () => {
    const searched = await server.call('memory_search', { query: 'staging deploy VPN', k: 1 });
    const listed = await server.call('memory_recall', { query: 'staging deploy VPN', k: 1, format: 'list' });
    const ids = (result: typeof listed) => dataOf<{ results: Array<{ id: string }> }>(result).results.map((r) => r.id);
    expect(ids(searched)).toEqual(ids(listed));
    expect(textOf(searched)).toMatch(/^1 memory for "staging deploy VPN":\n- /);
    expect(textOf(listed)).toMatch(/^1 memory for "staging deploy VPN":\n- /);
    expect(textOf(searched)).toContain('Note: memory_search is now memory_recall (memory_search still works for now).');
    const context = textOf(await server.call('memory_recall', { query: 'staging deploy VPN', k: 1 }));
    expect(context).not.toMatch(/^1 memory for/);
    expect(context).toContain(`Ids: ${ids(listed)[0]}`);
  });

  it('memory_recall_steps answers as memory_procedures_from_recording, its refusal naming the new tool', async () => {
    const steps = await server.call('memory_recall_steps', { query: 'add an SSH key on GitHub' });
    const now = await server.call('memory_procedures_from_recording', { query: 'add an SSH key on GitHub' });
    expect(steps.isError).toBe(now.isError);
    expect(textOf(steps)).toContain(textOf(now));
    expect(textOf(steps)).toContain('memory_recall_steps is now memory_procedures_from_recording');
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('memory_recall_steps');
  });
});
