import { afterEach, describe, expect, it } from 'vitest';
import { type MemoryClient, ValidationError } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import type { FullStore } from '../helpers/stores.js';
import { collect, quiet, STORES, storeAndClient } from '../helpers/stores.js';

// An import is all or nothing: a bad line anywhere in the file writes nothing (before, a bad
// line 1,502 rejected the import after the first 1,000 memories had been committed), and only
// an explicit `onInvalid: 'skip'` imports the good lines, saying which were left out and why.

const T0 = Date.parse('2026-01-05T09:00:00Z');

/** An export of `count` memories from a scratch client, as lines. */
async function exportOf(count: number, make: () => FullStore): Promise<string[]> {
  const { memory } = storeAndClient(make, { clock: createFixedClock(T0) });
  try {
    const inputs = Array.from({ length: count }, (_, index) => ({
      content: `Imported note ${index}: the deploy of service ${index % 13} passed.`,
      entities: [`service-${index % 13}`],
    }));
    for (let at = 0; at < inputs.length; at += 500) await memory.retain(inputs.slice(at, at + 500));
    return await collect(memory.export());
  } finally {
    await memory.close();
  }
}

describe.each(STORES)('import is all or nothing (%s)', (_name, make) => {
  let memory: MemoryClient | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  it('a bad line 1,502 writes nothing, not even the 1,500 before it', async () => {
    const lines = await exportOf(1600, make);
    expect(lines.filter((line) => line.includes('"type":"memory"'))).toHaveLength(1600);
    const client = storeAndClient(make, { clock: createFixedClock(T0) });
    memory = client.memory;
    await memory.retain('Kept: the memory that was there before the import.');
    const broken = [...lines];
    broken[1501] = '{"type":"memory","memory":{"id":"bad"},"embedding":null}';

    const error = await memory.import(broken).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toMatch(/^line 1502/);

    const left = await client.store.list('memory');
    expect(left.map((each) => each.content)).toEqual(['Kept: the memory that was there before the import.']);
    // No record of the file either: the entities it names were never written.
    const entities = await client.store.list('entity');
    expect(entities.some((entity) => entity.name.startsWith('service-'))).toBe(false);
    expect((error as ValidationError).suggestion).toMatch(/nothing was imported/);
  }, 120_000);

  it('with onInvalid "skip", imports the good lines and says which lines were left out and why', async () => {
    const lines = await exportOf(30, make);
    const client = storeAndClient(make, { clock: createFixedClock(T0) });
    memory = client.memory;
    const broken = [...lines];
    broken[5] = 'not json at all';
    broken[12] = '{"type":"memory","memory":{"id":"bad"},"embedding":null}';

    const result = await memory.import(broken, { onInvalid: 'skip' });
    expect(result.memories).toBe(28);
    expect(result.skippedLines).toBe(2);
    expect(result.invalidLines.map((each) => each.line)).toEqual([6, 13]);
    expect(result.invalidLines[0]!.issues[0]!.message).toMatch(/not valid JSON/);
    expect(result.invalidLines[1]!.issues[0]!.field).toMatch(/^line 13: memory\./);
    expect(await client.store.count!()).toBe(28);
  }, 120_000);

  it('refuses an unknown onInvalid with a ValidationError naming the option', async () => {
    const client = storeAndClient(make, { logger: quiet });
    memory = client.memory;
    const error = await memory
      .import([], { onInvalid: 'maybe' as unknown as 'skip' })
      .catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toMatch(/onInvalid/);
  });
});
