import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory, type MemoryClient } from '../../src/index.js';
import { createMcpServer } from '../../src/integrations/mcp/index.js';
import { tempDir } from '../helpers/stores.js';
import { textOf } from './mcp-harness.js';

// What a model reads over MCP when memory_procedures_from_recording has no recordings to search: the
// setting `memoir mcp` is started with (MEMORIES_AI_API_KEY), not the library's
// createMemory({ video }). Through the official MCP client, on a real SQLite file, with the
// client `memoir mcp` builds when the key is not set (no video provider).

const open: Array<{ client: Client; memory: MemoryClient }> = [];
afterEach(async () => {
  for (const { client, memory } of open.splice(0)) {
    await client.close();
    await memory.close();
  }
});

describe('MCP tool errors speak the server’s language', { timeout: 60_000 }, () => {
  it('memory_procedures_from_recording with no video provider and nothing cached names MEMORIES_AI_API_KEY', async () => {
    const home = tempDir('memoir-mcp-door-errors-');
    const memory = createMemory({ store: createSqliteStore({ path: join(home, 'memoir.sqlite') }) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer({ client: memory, home })().connect(serverSide);
    const client = new Client({ name: 'memoir-tests', version: '1' });
    await client.connect(clientSide);
    open.push({ client, memory });

    const result = (await client.callTool({
      name: 'memory_procedures_from_recording',
      arguments: { query: 'add an SSH key on GitHub' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/no video provider/);
    expect(text).toMatch(
      /Hint: Calling again will not help: the server's operator must start the server with MEMORIES_AI_API_KEY set/,
    );
    expect(text).not.toMatch(/createMemory|createMemoriesAiProvider/);
  });
});
