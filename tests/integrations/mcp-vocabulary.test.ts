import { afterEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// One vocabulary at the MCP door (docs/vocabulary.md), through `memoir mcp` and the official
// client: `k` sizes every ranked answer. The old `top_k` of memory_find_procedures still works
// and the result says the new name; `top_k` and `k` with different values are refused, naming
// both. Errors tell the model the argument to change, or what the server's operator must set —
// never to "create the client with …".

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function serverWithProcedures(): Promise<McpConnection> {
  const home = tempDir('memoir-mcp-vocabulary-');
  const memory = createMemory({ home, logger: { log() {} } });
  for (const what of ['web app', 'API server', 'docs site']) {
    await memory.procedures.save({
      title: `Deploy the ${what}`,
      triggerExamples: [`deploy the ${what}`],
      steps: ['go'],
    });
  }
  await memory.close();
  const connection = await connectMemoirMcp({ home, tools: 'all' });
  open.push(connection);
  return connection;
}

const ids = (result: Awaited<ReturnType<McpConnection['call']>>) =>
  dataOf<{ procedures: Array<{ id: string }> }>(result).procedures.map((procedure) => procedure.id);

describe('MCP vocabulary', { timeout: 90_000 }, () => {
  it('memory_find_procedures takes k; the old top_k gives the same answer and its text names k', async () => {
    const server = await serverWithProcedures();
    const byK = await server.call('memory_find_procedures', { request: 'deploy the web app', k: 1 });
    expect(ids(byK)).toHaveLength(1);
    expect(textOf(byK)).not.toMatch(/top_k/);
    const old = await server.call('memory_find_procedures', { request: 'deploy the web app', top_k: 1 });
    expect(ids(old)).toEqual(ids(byK));
    expect(textOf(old)).toMatch(/Note: top_k is now k \(top_k still works for now\)/);
    const same = await server.call('memory_find_procedures', { request: 'deploy the web app', top_k: 1, k: 1 });
    expect(ids(same)).toEqual(ids(byK));

    const both = await server.call('memory_find_procedures', { request: 'deploy the web app', top_k: 1, k: 2 });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toMatch(/top_k: top_k is the old name of k.*\(1 and 2\)/);
    expect(textOf(both)).toMatch(/Hint: Pass only k \(top_k is its old name\) and call memory_find_procedures again/);

    const { tools } = await server.client.listTools();
    const find = tools.find((tool) => tool.name === 'memory_find_procedures')!;
    expect(Object.keys((find.inputSchema as { properties: object }).properties)).toContain('k');
    expect(Object.keys((find.inputSchema as { properties: object }).properties)).not.toContain('top_k');
  });

  it('memory_list filters by since and until, as memory_search does and the CLI list does', async () => {
    const server = await serverWithProcedures();
    await server.call('memory_retain', { content: 'Peter drinks green tea' });
    const recent = dataOf<{ count: number }>(await server.call('memory_list', { since: '1d' }));
    expect(recent.count).toBe(1);
    const before = dataOf<{ count: number }>(await server.call('memory_list', { until: '2000-01-01' }));
    expect(before.count).toBe(0);
    const bad = await server.call('memory_list', { since: 'whenever' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^memory_list: since: /);
  });

  it('errors say what the operator must set (memoir mcp --workspace), not how to create a client', async () => {
    const server = await serverWithProcedures();
    const reflected = await server.call('memory_reflect', {});
    expect(reflected.isError).toBe(true);
    const text = textOf(reflected);
    expect(text).toMatch(/reflect needs a workspace/);
    expect(text).toMatch(/Hint: .*the server's operator must start the server with .*`memoir mcp --workspace <dir>`/);
    expect(text).not.toMatch(/createWorkspace|createMemory|Create the client/);

    const cleared = await server.call('memory_clear_all', {});
    expect(cleared.isError).toBe(true);
    expect(textOf(cleared)).toMatch(/Hint: Ask the user first; call memory_clear_all again with confirm: true/);
  });
});
