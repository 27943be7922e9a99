import { runScopeIsolationContract } from 'memoir/testing/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory, type MemoryClient, StoreError, ValidationError } from '../../src/index.js';
import { createCounterIds, createFixedClock } from '../../src/testing/index.js';
import { freshPaths, quiet } from '../helpers/stores.js';

// memory.withScope(scope): a view of one client held inside a scope. Alice and Bob as views of
// the admin client pass the same scope-isolation contract as clients of their own, on a real
// SQLite file and in memory; the rest checks what a view shares with its client and what not.

const sqlitePath = freshPaths('scope-views');

runScopeIsolationContract({
  name: 'sqlite',
  create: () => createSqliteStore({ path: sqlitePath() }),
  tenants: 'views',
});

function client(options: Parameters<typeof createMemory>[0] = {}): MemoryClient {
  const memory = createMemory({
    store: createSqliteStore({ path: sqlitePath() }),
    clock: createFixedClock('2026-11-29T09:00:00Z'),
    ids: createCounterIds(),
    logger: quiet,
    ...options,
  });
  afterAll(() => memory.close());
  return memory;
}

async function refusal(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to be refused');
}

describe('memory.withScope', () => {
  const memory = client();
  const sam = memory.withScope({ userId: 'sam' });
  const kim = memory.withScope({ userId: 'kim' });

  it('shares the engine: what a view retains is in the one store, recallable through the client for that scope', async () => {
    expect(sam.store).toBe(memory.store);
    expect(sam.embedder).toBe(memory.embedder);
    expect(sam.scope).toEqual({ userId: 'sam' });
    const { ids } = await sam.retain('Sam prefers window seats on long flights');
    await kim.retain('Kim prefers aisle seats on long flights');
    const stored = await memory.store.get('memory', ids);
    expect(stored.map((each) => each.scope)).toEqual([{ userId: 'sam' }]);
    const throughClient = await memory.recall('seats on long flights', { scope: { userId: 'sam' } });
    expect(throughClient.results.map((result) => result.memory.id)).toEqual(ids);
    const throughView = await sam.recall('seats on long flights');
    expect(throughView.results.map((result) => result.memory.id)).toEqual(ids);
    expect((await sam.stats()).memories).toBe(1);
    expect((await memory.stats()).memories).toBe(2);
  });

  it('never reads, counts or changes another scope', async () => {
    const kimIds = (await kim.list()).map((each) => each.id);
    expect(kimIds).toHaveLength(1);
    expect((await sam.list()).every((each) => each.scope.userId === 'sam')).toBe(true);
    expect(await sam.forget(kimIds)).toBe(0);
    expect((await refusal(() => sam.get(kimIds[0]!))) as Error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await sam.recall('aisle seats', { scope: { userId: 'kim' } })).results).toEqual([]);
    const error = await refusal(() => sam.retain({ content: 'sneaky', scope: { userId: 'kim' } }));
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((await kim.list()).map((each) => each.id)).toEqual(kimIds);
  });

  it('validates its argument with zod: a scope naming no one or an unknown field is a ValidationError naming it', () => {
    for (const [input, field] of [
      [{}, 'scope'],
      [{ userId: undefined }, 'scope'],
      [{ userId: '' }, 'scope.userId'],
      [{ user: 'sam' }, 'scope'],
      [undefined, 'scope'],
    ] as const) {
      let caught: unknown;
      try {
        memory.withScope(input as never);
      } catch (error) {
        caught = error;
      }
      expect(ValidationError.isInstance(caught), JSON.stringify(input)).toBe(true);
      expect((caught as ValidationError).issues[0]?.field).toBe(field);
    }
  });

  it('narrows a scoped client and refuses to widen it', async () => {
    const scoped = client({ scope: { userId: 'sam' } });
    const travel = scoped.withScope({ namespace: 'travel' });
    expect(travel.scope).toEqual({ userId: 'sam', namespace: 'travel' });
    expect(scoped.withScope({ userId: 'sam' }).scope).toEqual({ userId: 'sam' });
    let caught: unknown;
    try {
      scoped.withScope({ userId: 'kim' });
    } catch (error) {
      caught = error;
    }
    expect(ValidationError.isInstance(caught)).toBe(true);
    expect((caught as ValidationError).issues[0]?.field).toBe('scope.userId');
    // A view of a view narrows again, and may not leave its own scope either.
    expect(() => travel.withScope({ namespace: 'work' })).toThrow(ValidationError);
    const { ids } = await travel.retain('Sam keeps the passport in the blue folder');
    expect((await scoped.list()).map((each) => each.id)).toEqual(ids);
    expect(await scoped.withScope({ namespace: 'work' }).list()).toEqual([]);
  });

  it('keeps its own session: a resume through the view moves neither the client nor another view', async () => {
    const shared = client({ sessionId: 'desk' });
    const a = shared.withScope({ userId: 'a' });
    const b = shared.withScope({ userId: 'b' });
    expect(a.currentSession()).toBe('desk');
    await a.startSession('trip');
    await a.retain('a packs light');
    await b.retain('b packs heavy');
    expect(a.currentSession()).toBe('trip');
    expect(b.currentSession()).toBe('desk');
    expect(shared.currentSession()).toBe('desk');
    expect((await a.list({ sessionId: 'current' })).map((each) => each.content)).toEqual(['a packs light']);
  });

  it('hears its own events; the client hears every view', async () => {
    const parent = client();
    const a = parent.withScope({ userId: 'a' });
    const b = parent.withScope({ userId: 'b' });
    const heardByA: string[] = [];
    const heardByParent: string[] = [];
    a.on('memory:retained', ({ memories }) => heardByA.push(...memories.map((each) => each.content)));
    parent.on('memory:retained', ({ memories }) => heardByParent.push(...memories.map((each) => each.content)));
    await a.retain('a note');
    await b.retain('b note');
    expect(heardByA).toEqual(['a note']);
    expect(heardByParent.sort()).toEqual(['a note', 'b note']);
  });

  it('close on a view refuses calls through it and leaves the client and the store open', async () => {
    const parent = client();
    const view = parent.withScope({ userId: 'a' });
    const nested = view.withScope({ agentId: 'helper' });
    await view.retain('before close');
    await view.close();
    await view.close();
    expect(StoreError.isInstance(await refusal(() => view.recall('before')))).toBe(true);
    expect(StoreError.isInstance(await refusal(() => nested.list()))).toBe(true);
    expect((await parent.list()).map((each) => each.content)).toEqual(['before close']);
    const other = parent.withScope({ userId: 'a' });
    expect((await other.recall('before close')).results).toHaveLength(1);
    await parent.close();
    expect(StoreError.isInstance(await refusal(() => other.list()))).toBe(true);
  });
});
