import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { bin, childEnvironment, dataOf, runMemoir as memoir } from './mcp-harness.js';

// Seed 001: `memory_export(format="json")` — "file can be re-imported later". Both formats the
// MCP tool writes go back in through `memoir import`: the real server with the official
// client, the real executable as a child process, SQLite files under two homes.

interface Listed {
  memories: Array<{ id: string; content: string; metadata: Record<string, unknown> }>;
}

describe('memory_export files go back in with memoir import', () => {
  it('reads both the json and the jsonl export, with metadata and embeddings', async () => {
    const home = tempDir('memoir-mcp-export-');
    const client = new Client({ name: 'memoir-tests', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp'],
        // Every tool set, where the server serves sets (memory_export is not an everyday tool).
        env: childEnvironment({ MEMOIR_HOME: home, MEMOIR_MCP_TOOLS: 'all' }),
      }),
    );
    const server = {
      call: async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult,
      close: () => client.close(),
    };
    const exported: Record<string, string> = {};
    try {
      await server.call('memory_retain', {
        content: 'Important workflow completed successfully',
        category: 'workflow',
        metadata: { bookmarked: true, priority: 'high' },
      });
      await server.call('memory_retain', { content: 'The staging console lives on port 8080.' });
      for (const format of ['json', 'jsonl']) {
        exported[format] = dataOf<{ path: string }>(
          await server.call('memory_export', { name: 'memories', format }),
        ).path;
      }
    } finally {
      await server.close();
    }
    const original = JSON.parse((await memoir(home, '--json', 'list')).stdout) as Listed;
    expect(original.memories).toHaveLength(2);

    for (const format of ['json', 'jsonl']) {
      const target = tempDir(`memoir-import-${format}-`);
      const imported = await memoir(target, '--json', 'import', exported[format]!);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ memories: 2, skippedEmbeddings: 0 });
      const listed = JSON.parse((await memoir(target, '--json', 'list')).stdout) as Listed;
      expect(listed.memories.map((memory) => [memory.id, memory.content, memory.metadata])).toEqual(
        original.memories.map((memory) => [memory.id, memory.content, memory.metadata]),
      );
      // The embeddings came along: recall finds the memory by meaning in the new home.
      const recalled = await memoir(target, '--json', 'recall', 'which port does the staging console use');
      expect(recalled.stdout).toContain('port 8080');
    }
  }, 90_000);
});
