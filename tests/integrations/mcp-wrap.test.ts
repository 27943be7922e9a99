import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { agentTools } from '../../src/integrations/agent-tools.js';
import { tempDir } from '../helpers/stores.js';
import {
  childEnvironment,
  connectMemoirMcp,
  dataOf,
  eventually,
  handsServer,
  type McpConnection,
  textOf,
} from './mcp-harness.js';

// The capture proxy: `memoir mcp --wrap -- node mcp-hands-server.mjs` must look exactly like
// the wrapped server to a host (the same tools, results and errors), while its calls become
// action memories the seed's workflow, warning and analysis tools work on.

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

async function wrapped(home: string, flags: string[]): Promise<McpConnection> {
  const connection = await connectMemoirMcp({
    home,
    args: [...flags, '--wrap', '--', process.execPath, handsServer],
    // Every memoir tool beside the wrapped ones, unless the test serves the wrapped server alone.
    ...(flags.includes('--no-memory-tools') ? {} : { tools: 'all' }),
  });
  open.push(connection);
  return connection;
}

/** The fixture reached directly, for comparison. */
async function direct(): Promise<Client> {
  const client = new Client({ name: 'memoir-tests-direct', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [handsServer], env: childEnvironment({}) }),
  );
  open.push(client);
  return client;
}

/** A call's result, or its protocol error's code and message. */
async function outcome(promise: Promise<unknown>): Promise<unknown> {
  try {
    return { result: await promise };
  } catch (error) {
    return { error: { code: (error as { code?: unknown }).code, message: (error as Error).message } };
  }
}

async function protocolError(promise: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
  throw new Error('expected the call to be refused');
}

interface ListedMemory {
  content: string;
  category: string;
  metadata: { tool?: string; success?: boolean };
}

describe('memoir mcp --wrap', { timeout: 90_000 }, () => {
  it('passes the wrapped server’s tools, results and errors through unchanged', async () => {
    const [proxy, fixture] = await Promise.all([wrapped(tempDir('memoir-mcp-wrap-'), ['--capture']), direct()]);
    const own = (await fixture.listTools()).tools;
    const listed = (await proxy.client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual([
      ...agentTools.map((tool) => tool.name),
      'mouse_click',
      'keyboard_type',
    ]);
    expect(listed.filter((tool) => !tool.name.startsWith('memory_'))).toEqual(own);

    for (const args of [
      { x: 500, y: 300 },
      { x: -1, y: 300 },
    ]) {
      const through = (await proxy.client.callTool({ name: 'mouse_click', arguments: args })) as CallToolResult;
      const straight = (await fixture.callTool({ name: 'mouse_click', arguments: args })) as CallToolResult;
      expect(through).toEqual(straight);
    }
    expect(
      textOf((await proxy.client.callTool({ name: 'mouse_click', arguments: { x: -1, y: 2 } })) as CallToolResult),
    ).toBe('no element at (-1, 2)');

    // Arguments the wrapped server's schema refuses, and a tool it does not have: whatever it
    // answers (a tool error result or a protocol error) reaches the host as it was.
    for (const [name, args] of [
      ['mouse_click', { x: 'left' }],
      ['mouse_drag', {}],
    ] as const) {
      const through = await outcome(proxy.client.callTool({ name, arguments: args }));
      const straight = await outcome(fixture.callTool({ name, arguments: args }));
      expect(through).toEqual(straight);
    }
  });

  it('captures each call as an action memory; warns about the failing one and builds a workflow from the session', async () => {
    const proxy = await wrapped(tempDir('memoir-mcp-wrap-'), ['--capture', '--capture-interval', '0']);
    for (let attempt = 0; attempt < 5; attempt++) {
      await proxy.client.callTool({ name: 'mouse_click', arguments: { x: -500, y: 300 } });
    }
    await proxy.client.callTool({ name: 'mouse_click', arguments: { x: 40, y: 80 } });
    await proxy.client.callTool({ name: 'keyboard_type', arguments: { text: 'memoir mcp' } });
    // Refused by the wrapped server before it ran: nothing happened, so nothing is remembered.
    await protocolError(proxy.client.callTool({ name: 'mouse_drag', arguments: {} }));

    const actions = await eventually(
      async () =>
        dataOf<{ memories: ListedMemory[] }>(await proxy.call('memory_list', { session_id: 'current', type: 'action' }))
          .memories,
      (memories) => memories.length === 7,
    );
    expect(actions.map((memory) => memory.metadata.tool).sort()).toEqual([
      'keyboard_type',
      ...Array(6).fill('mouse_click'),
    ]);
    expect(actions.filter((memory) => memory.metadata.success === false)).toHaveLength(5);
    expect(actions.find((memory) => memory.metadata.tool === 'keyboard_type')!.content).toContain(
      'typed 10 characters',
    );

    const warning = await proxy.call('memory_warn', { action: 'mouse_click', parameters: { x: -500, y: 300 } });
    expect(textOf(warning)).toContain('Warning: mouse_click failed 5 times, success rate 0%');
    expect(
      dataOf<{ failures: number; alternatives: Array<{ tool: string }> }>(warning).alternatives.length,
    ).toBeGreaterThan(0);

    const workflow = await proxy.call('memory_create_workflow_from_session', {
      session_id: 'current',
      name: 'google_search_workflow',
    });
    const steps = dataOf<{ procedure: { title: string; steps: string[] } }>(workflow).procedure;
    expect(steps.title).toBe('google_search_workflow');
    expect(steps.steps.join('\n')).toMatch(/mouse_click[\s\S]*keyboard_type/);

    const patterns = await proxy.call('memory_analyze_patterns', { type: 'action', metric: 'success_rate' });
    expect(textOf(patterns)).toContain('mouse_click: 17% of 6');
    const suggestions = await proxy.call('memory_suggest', { context: 'type memoir mcp into the search field' });
    expect(textOf(suggestions)).toContain('keyboard_type');
  });

  it('detects a sequence of wrapped calls repeated three times as a workflow', async () => {
    const proxy = await wrapped(tempDir('memoir-mcp-wrap-'), ['--capture']);
    for (let run = 1; run <= 3; run++) {
      await proxy.client.callTool({ name: 'mouse_click', arguments: { x: run, y: run } });
      await proxy.client.callTool({ name: 'keyboard_type', arguments: { text: `query ${run}` } });
    }
    await eventually(
      async () => dataOf<{ count: number }>(await proxy.call('memory_list', { session_id: 'current' })).count,
      (count) => count === 6,
    );
    const detected = await proxy.call('memory_detect_workflows');
    const workflows = dataOf<{ workflows: Array<{ steps: string[]; repeats: number }> }>(detected).workflows;
    expect(workflows).toContainEqual(expect.objectContaining({ steps: ['mouse_click', 'keyboard_type'], repeats: 3 }));
    expect(textOf(detected)).toContain('mouse_click → keyboard_type (3×');
  });

  it('captures nothing unless asked, skips repeats within the interval, and can hide memoir’s own tools', async () => {
    const quiet = await wrapped(tempDir('memoir-mcp-wrap-'), []);
    await quiet.client.callTool({ name: 'mouse_click', arguments: { x: 1, y: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(dataOf<{ count: number }>(await quiet.call('memory_list', { session_id: 'current' })).count).toBe(0);

    const filtered = await wrapped(tempDir('memoir-mcp-wrap-'), ['--capture']);
    await filtered.client.callTool({ name: 'mouse_click', arguments: { x: 500, y: 300 } });
    await filtered.client.callTool({ name: 'mouse_click', arguments: { x: 500, y: 300 } });
    await filtered.client.callTool({ name: 'mouse_click', arguments: { x: 501, y: 300 } });
    const memories = await eventually(
      async () => dataOf<{ count: number }>(await filtered.call('memory_list', { session_id: 'current' })).count,
      (count) => count >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(memories).toBe(2);
    expect(dataOf<{ count: number }>(await filtered.call('memory_list', { session_id: 'current' })).count).toBe(2);

    const bare = await wrapped(tempDir('memoir-mcp-wrap-'), ['--no-memory-tools']);
    expect((await bare.client.listTools()).tools.map((tool) => tool.name)).toEqual(['mouse_click', 'keyboard_type']);
  });
});
