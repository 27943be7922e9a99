import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMemoirMcp, dataOf, textOf } from './mcp-harness.js';

// Seed 004's core block through `memoir mcp`, driven by the official MCP client: the agent reads
// and edits the block with tool calls, an edit past the limit or with a missing target is a
// tool error naming the argument, and memory_recall's context carries the block first.

const root = mkdtempSync(join(tmpdir(), 'memoir-mcp-core-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let homes = 0;
const newHome = () => join(root, `home-${++homes}`);

interface CoreState {
  text: string;
  tokens: number;
  limit: number;
}

describe('the core block tools through memoir mcp', () => {
  it('lists the four tools with their schemas', async () => {
    const server = await connectMemoirMcp({ home: newHome(), tools: 'all' });
    try {
      const { tools } = await server.client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('memory_core_read')?.annotations?.readOnlyHint).toBe(true);
      expect(byName.get('memory_core_append')?.inputSchema.required).toEqual(['text']);
      expect(byName.get('memory_core_replace')?.inputSchema.required).toEqual(['find', 'with']);
      expect(byName.get('memory_core_insert')?.inputSchema.required).toEqual(['text', 'line']);
    } finally {
      await server.close();
    }
  });

  it('edits the block with the tools, reads it back, and memory_recall puts it first', async () => {
    const server = await connectMemoirMcp({ home: newHome(), tools: 'all' });
    try {
      expect(textOf(await server.call('memory_core_read'))).toMatch(/core block is empty \(0 of 2000 tokens\)/);
      dataOf(await server.call('memory_core_append', { text: 'Peter lives in Vienna.' }));
      dataOf(await server.call('memory_core_append', { text: 'Peter prefers concise replies.' }));
      dataOf(await server.call('memory_core_replace', { find: 'Vienna', with: 'Lisbon' }));
      const inserted = dataOf<CoreState>(
        await server.call('memory_core_insert', { text: 'Peter is the on-call lead.', line: 0 }),
      );
      const expected = 'Peter is the on-call lead.\nPeter lives in Lisbon.\nPeter prefers concise replies.\n';
      expect(inserted.text).toBe(expected);
      const read = await server.call('memory_core_read');
      expect(dataOf<CoreState>(read)).toMatchObject({ text: expected, limit: 2000 });
      expect(textOf(read)).toContain(expected.trimEnd());

      dataOf(await server.call('memory_retain', { content: 'The staging cluster runs in Frankfurt.' }));
      const recalled = textOf(await server.call('memory_recall', { query: 'staging cluster' }));
      expect(recalled.startsWith('## Core memory\n')).toBe(true);
      expect(recalled).toContain(`<core>\n${expected.trimEnd()}\n</core>`);
      expect(recalled.indexOf('</core>')).toBeLessThan(recalled.indexOf('Frankfurt'));
    } finally {
      await server.close();
    }
  });

  it('refuses an over-limit edit and a missing or repeated target as tool errors naming the argument', async () => {
    const server = await connectMemoirMcp({ home: newHome(), tools: 'all' });
    try {
      dataOf(await server.call('memory_core_append', { text: 'Peter lives in Lisbon. Peter likes Lisbon.' }));
      const over = await server.call('memory_core_append', { text: 'word '.repeat(3000) });
      expect(over.isError).toBe(true);
      expect(textOf(over)).toMatch(
        /^memory_core_append: text: would make the core block \d+ tokens, over its limit of 2000/,
      );
      const missing = await server.call('memory_core_replace', { find: 'Vienna', with: 'Rome' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/^memory_core_replace: find: expected text that occurs in the core block/);
      const repeated = await server.call('memory_core_replace', { find: 'Lisbon', with: 'Rome' });
      expect(textOf(repeated)).toMatch(/^memory_core_replace: find: .*occurs more than once/);
      const badLine = await server.call('memory_core_insert', { text: 'x', line: -1 });
      expect(textOf(badLine)).toMatch(/^memory_core_insert: line:/);
      const overReplace = await server.call('memory_core_replace', { find: 'likes', with: 'word '.repeat(3000) });
      expect(textOf(overReplace)).toMatch(/^memory_core_replace: with: would make the core block/);
      expect(dataOf<CoreState>(await server.call('memory_core_read')).text).toBe(
        'Peter lives in Lisbon. Peter likes Lisbon.\n',
      );
    } finally {
      await server.close();
    }
  });

  it('a server scoped to one user edits and injects only that user’s block', async () => {
    const home = newHome();
    const alice = await connectMemoirMcp({ home, args: ['--user', 'alice'], tools: 'all' });
    try {
      dataOf(await alice.call('memory_core_append', { text: 'Alice is allergic to peanuts.' }));
    } finally {
      await alice.close();
    }
    const bob = await connectMemoirMcp({ home, args: ['--user', 'bob'], tools: 'all' });
    try {
      expect(dataOf<CoreState>(await bob.call('memory_core_read')).text).toBe('');
      dataOf(await bob.call('memory_retain', { content: 'Bob had peanuts for lunch.' }));
      expect(textOf(await bob.call('memory_recall', { query: 'peanuts' }))).not.toContain('allergic');
    } finally {
      await bob.close();
    }
  });
});
