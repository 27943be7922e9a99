import { createStoreGate, listMemoriesIn, listRecordsIn, pageOf, sortMemories } from 'memoir/store-kit';
import { makeMemory, makeOpinion } from 'memoir/testing';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/index.js';

// The kit every store is built on (memoir/store-kit): the gate's queue, nesting guard and closed
// state, and the port's order and page semantics for records held in JavaScript.

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('createStoreGate', () => {
  it('runs writes one at a time in order, and a transaction’s own writes at once inside it', async () => {
    const gate = createStoreGate<string[]>({ name: 'kit' });
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((done) => {
      release = done;
    });
    const transaction = gate.transaction(
      async () => {
        await gate.write((undo) => {
          events.push(`inside (undo ${undo ? 'given' : 'missing'})`);
          undo?.push('step');
        });
        await held;
        return 'done';
      },
      { begin: () => [], commit: (undo) => void events.push(`commit ${undo.length}`) },
    );
    const outside = gate.write((undo) => void events.push(`outside (undo ${undo ? 'given' : 'missing'})`));
    await new Promise((done) => setTimeout(done, 10));
    expect(events).toEqual(['inside (undo given)']);
    release();
    expect(await transaction).toBe('done');
    await outside;
    expect(events).toEqual(['inside (undo given)', 'commit 1', 'outside (undo missing)']);
  });

  it('refuses a nested transaction, rolls back on rejection and passes the rejection on', async () => {
    const gate = createStoreGate<true>({ name: 'kit' });
    const rolledBack: unknown[] = [];
    const failure = new Error('work failed');
    const outcome = await rejection(
      gate.transaction(
        async () => {
          const nested = await rejection(gate.transaction(async () => 1, { begin: () => true }));
          expect(StoreError.isInstance(nested)).toBe(true);
          expect((nested as StoreError).message).toContain('do not nest');
          throw failure;
        },
        { begin: () => true, rollback: (_context, error) => void rolledBack.push(error) },
      ),
    );
    expect(outcome).toBe(failure);
    expect(rolledBack).toEqual([failure]);
  });

  it('close waits for queued writes, then every call rejects with a StoreError; close twice is harmless', async () => {
    const gate = createStoreGate({ name: 'kit', where: '/tmp/kit.json' });
    let written = false;
    const write = gate.write(async () => {
      await new Promise((done) => setTimeout(done, 10));
      written = true;
    });
    let released = 0;
    await Promise.all([gate.close(() => void released++), gate.close(() => void released++)]);
    expect(written).toBe(true);
    expect(released).toBe(1);
    await write;
    const calls = [
      () => gate.read(() => 1),
      () => gate.write(() => 1),
      () => gate.transaction(async () => 1, { begin: () => true }),
    ];
    for (const call of calls) {
      const error = await rejection(call());
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as StoreError).message).toContain('store "/tmp/kit.json" is closed');
    }
  });
});

describe('the list helpers', () => {
  it('order memories as the port says: key, direction, ties by id ascending, then page', () => {
    const memories = [
      makeMemory({ id: 'b', createdAt: '2025-01-02T00:00:00.000Z', importance: 0.5 }),
      makeMemory({ id: 'a', createdAt: '2025-01-02T00:00:00.000Z', importance: 0.5 }),
      makeMemory({ id: 'c', createdAt: '2025-01-02T01:00:00.000Z', importance: 0.9 }),
    ];
    expect(sortMemories(memories).map((memory) => memory.id)).toEqual(['c', 'a', 'b']);
    expect(sortMemories(memories, 'createdAt', 'asc').map((memory) => memory.id)).toEqual(['a', 'b', 'c']);
    expect(sortMemories(memories, 'importance').map((memory) => memory.id)).toEqual(['c', 'a', 'b']);
    expect(listMemoriesIn(memories, { orderBy: 'importance', limit: 1, offset: 1 }).map((memory) => memory.id)).toEqual(
      ['a'],
    );
    expect(listMemoriesIn(memories, { filter: { ids: ['b', 'c'] } }).map((memory) => memory.id)).toEqual(['c', 'b']);
    expect(pageOf([1, 2, 3], -1, 2.7)).toEqual([1, 2]);
  });

  it('list other records by scope, by id', () => {
    const records = [
      makeOpinion({ id: 'o2', scope: { userId: 'alice' } }),
      makeOpinion({ id: 'o1', scope: { userId: 'alice', agentId: 'x' } }),
      makeOpinion({ id: 'o3', scope: { userId: 'bob' } }),
    ];
    expect(listRecordsIn(records, { scope: { userId: 'alice' } }).map((record) => record.id)).toEqual(['o1', 'o2']);
    expect(listRecordsIn(records, { offset: 2 }).map((record) => record.id)).toEqual(['o3']);
  });
});
