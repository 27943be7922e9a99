import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { bin, childEnvironment, dataOf, eventually } from './mcp-harness.js';

// Seed 001: "memory includes AI provider, prompt, result, screen text" and "browser-mcp stores
// workflow memory: workflow name, steps, duration, ARIA tree context". A call captured through
// `memoir mcp --wrap` keeps what a direct capture (withCapture with screenText and type)
// keeps: the screen text read from the result, and a workflow's steps as one workflow memory.

const browserServer = resolve(import.meta.dirname, '../fixtures/mcp-browser-server.mjs');
const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

interface Listed {
  memories: Array<{ category: string; content: string; metadata: Record<string, unknown> }>;
}

describe('memoir mcp --wrap keeps the fields a direct capture keeps', () => {
  it('screen text of a vision call, and a browser workflow as one workflow memory', async () => {
    const client = new Client({ name: 'memoir-tests', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--capture', '--wrap', '--', process.execPath, browserServer],
        env: childEnvironment({ MEMOIR_HOME: tempDir('memoir-mcp-wrap-fields-'), MEMOIR_MCP_TOOLS: 'all' }),
      }),
    );
    open.push(client);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    await call('analyze_screen_ai', { prompt: 'identify UI elements', provider: 'openai' });
    await call('browser_run_workflow', { name: 'checkout', steps: ['open cart', 'fill address', 'pay'] });
    const memories = await eventually(
      async () => dataOf<Listed>(await call('memory_list', { session_id: 'current' })).memories,
      (listed) => listed.length === 2,
    );
    const byTool = Object.fromEntries(memories.map((memory) => [memory.metadata.tool, memory]));

    const screen = byTool.analyze_screen_ai!;
    expect(screen.category).toBe('screen');
    expect(screen.content).toContain('Prompt: identify UI elements');
    expect(screen.content).toContain('A login form with two fields');
    expect(screen.content).toContain('Screen text: Username Password Sign in');
    expect(screen.content).toContain('"provider":"openai"');

    const workflow = byTool.browser_run_workflow!;
    expect(workflow.category).toBe('workflow');
    expect(workflow.content).toContain('"name":"checkout"');
    expect(workflow.content).toContain('fill address');
    expect(workflow.content).toContain('Screen text: main > form[name=checkout] > button "Pay"');
    expect(typeof workflow.metadata.durationMs).toBe('number');
  }, 60_000);
});
