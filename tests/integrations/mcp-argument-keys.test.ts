import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInMemoryStore, createMemory, ValidationError } from '../../src/index.js';
import { agentTools, callAgentTool, memoryRetainTool } from '../../src/integrations/agent-tools.js';
import { quiet, tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// Keys JavaScript treats specially, sent as JSON by a model over MCP. JSON.parse keeps
// `__proto__` as an own key; an assignment or a zod record would turn it into the prototype
// and the key would vanish. The library refuses it in metadata; so must every door, with the
// same ValidationError, never storing the rest as if nothing had been said.

/** What the library itself says about this metadata (its ValidationError message), or undefined when it accepts it. */
async function libraryVerdict(metadata: Record<string, unknown>): Promise<string | undefined> {
  const memory = createMemory({ store: createInMemoryStore(), logger: quiet });
  try {
    await memory.retain({ content: 'The library decides.', metadata });
    return undefined;
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    return error.issues[0]!.message;
  } finally {
    await memory.close();
  }
}

/** JSON nested `depth` objects deep: {"a":{"a":…{"a":1}…}}. */
function nested(depth: number): unknown {
  return JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

describe('MCP tool arguments with __proto__, constructor and prototype keys', { timeout: 90_000 }, () => {
  let server: McpConnection;
  beforeAll(async () => {
    server = await connectMemoirMcp({ home: tempDir('memoir-mcp-keys-'), tools: 'all' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a __proto__ key in metadata with the library’s ValidationError, at any depth, and stores nothing', async () => {
    for (const raw of [
      '{"__proto__": {"polluted": true}, "priority": "high"}',
      '{"outer": {"inner": {"__proto__": {"polluted": true}}}}',
      '{"list": [{"__proto__": 1}]}',
    ]) {
      const metadata = JSON.parse(raw) as Record<string, unknown>;
      const expected = await libraryVerdict(metadata);
      expect(expected).toMatch(/__proto__/);
      const result = await server.call('memory_retain', { content: `Stored with ${raw}`, metadata });
      expect(result.isError, raw).toBe(true);
      expect(textOf(result)).toContain(expected!);
      expect(textOf(result)).toMatch(/^memory_retain: metadata\./);
    }
    expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a __proto__ key at the top of the arguments and inside any tool’s arguments', async () => {
    const topLevel = JSON.parse('{"content": "Top-level proto.", "__proto__": {"metadata": {"a": 1}}}') as Record<
      string,
      unknown
    >;
    const refused = await server.call('memory_retain', topLevel);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/__proto__/);
    const warn = await server.call(
      'memory_warn',
      JSON.parse('{"action": "click", "parameters": {"__proto__": {"x": 1}}}') as Record<string, unknown>,
    );
    expect(warn.isError).toBe(true);
    expect(textOf(warn)).toMatch(/parameters\.__proto__/);
    expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(0);
  });

  it('keeps constructor and prototype keys as the data they are, as the library does', async () => {
    const metadata = JSON.parse('{"constructor": {"name": "x"}, "prototype": 1, "toString": "s"}') as Record<
      string,
      unknown
    >;
    expect(await libraryVerdict(metadata)).toBeUndefined();
    const stored = dataOf<{ id: string }>(await server.call('memory_retain', { content: 'Odd keys kept.', metadata }));
    const read = dataOf<{ memory: { metadata: Record<string, unknown> } }>(
      await server.call('memory_get', { memory_id: stored.id }),
    );
    expect(read.memory.metadata).toEqual({ constructor: { name: 'x' }, prototype: 1, toString: 's' });
  });

  it('refuses deeply nested metadata with a clear error naming the field, never a RangeError, and keeps serving', async () => {
    for (const depth of [100, 1_000]) {
      const result = await server.call('memory_retain', {
        content: `Nested ${depth}.`,
        metadata: { deep: nested(depth) },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^memory_retain: metadata\.deep/);
      expect(textOf(result)).toMatch(/levels of nesting/);
      expect(textOf(result)).not.toMatch(/RangeError|call stack/i);
    }
    const fine = dataOf<{ stored: boolean }>(await server.call('memory_retain', { content: 'Still serving.' }));
    expect(fine.stored).toBe(true);
  });
});

describe('the shared agent tools (as OpenClaw calls them)', () => {
  it('refuse __proto__ anywhere in the arguments with a ValidationError naming the field', async () => {
    const memory = createMemory({ store: createInMemoryStore(), logger: quiet });
    try {
      const args = JSON.parse('{"content": "x", "metadata": {"a": {"__proto__": {"p": 1}}}}') as unknown;
      const error = await callAgentTool(memoryRetainTool, memory, args).catch((caught: unknown) => caught);
      expect(ValidationError.isInstance(error)).toBe(true);
      expect((error as ValidationError).issues[0]!.field).toBe('metadata.a.__proto__');
      for (const tool of agentTools) {
        const hostile = JSON.parse('{"__proto__": {"confirm": true}}') as unknown;
        const refused = await callAgentTool(tool, memory, hostile).catch((caught: unknown) => caught);
        expect(ValidationError.isInstance(refused), tool.name).toBe(true);
        expect((refused as ValidationError).message, tool.name).toMatch(/__proto__/);
      }
      expect((await memory.stats()).memories).toBe(0);
      const deep = await callAgentTool(memoryRetainTool, memory, { content: 'x', metadata: nested(200_000) }).catch(
        (caught: unknown) => caught,
      );
      expect(ValidationError.isInstance(deep)).toBe(true);
    } finally {
      await memory.close();
    }
  });
});
