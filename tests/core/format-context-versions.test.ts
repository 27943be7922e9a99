import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, formatContext, type MemoryClient } from '../../src/index.js';
import { quiet, STORES, type StoreFactory } from '../helpers/stores.js';

// formatContext marks a superseded memory it includes, so an agent reading the block does not
// present an old fact as current; the current version carries no such mark.

describe.each(STORES)('formatContext and the versions of a fact on %s', (_name, makeStore: StoreFactory) => {
  const open: MemoryClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  it('marks a superseded memory "until <date>, superseded" and leaves the current one unmarked', async () => {
    const memory = createMemory({ store: makeStore(), logger: quiet });
    open.push(memory);
    const vienna = (
      await memory.retain({
        content: 'Peter lives in Vienna.',
        entities: ['Peter'],
        occurredAt: '2024-03-01T00:00:00Z',
      })
    ).ids[0]!;
    const lisbon = (
      await memory.retain({
        content: 'Peter lives in Lisbon.',
        entities: ['Peter'],
        occurredAt: '2025-12-01T00:00:00Z',
      })
    ).ids[0]!;
    const response = await memory.recall('where does Peter live', { k: 5 });
    expect(response.results.map((result) => result.memory.id)).toEqual([lisbon, vienna]);
    const block = formatContext(response);
    const entry = (id: string) => block.split('\n').find((line) => line.startsWith(`<memory id="${id}"`)) ?? '';
    expect(entry(vienna)).toContain('status="until 2025-12-01, superseded"');
    expect(entry(lisbon)).not.toContain('status=');
    expect(memory.formatContext(response)).toBe(block);
  });

  it('keeps marking a memory invalidated by hand as invalid since its date', async () => {
    const memory = createMemory({ store: makeStore(), logger: quiet });
    open.push(memory);
    const id = (await memory.retain('The office wifi password is hunter2.')).ids[0]!;
    const invalid = await memory.invalidate(id, { reason: 'rotated' });
    const block = formatContext([invalid]);
    expect(block).toContain(`invalid-since="${invalid.validTo!.slice(0, 10)}"`);
    expect(block).not.toContain('superseded');
  });
});
