import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type MemoryClient, NotFoundError, ValidationError } from '../../src/index.js';
import { quiet, STORES, type StoreFactory } from '../helpers/stores.js';

// history, correct and asOf from the library, on every store: the chain of versions of one
// fact read from any of its members, a correction in one call, recall as of a date, and a
// scoped client that never sees another scope's versions.

const PETER = ['Peter'];
const BERLIN = { content: 'Peter lives in Berlin.', entities: PETER, occurredAt: '2023-03-01T00:00:00Z' };
const VIENNA = { content: 'Peter lives in Vienna.', entities: PETER, occurredAt: '2024-03-01T00:00:00Z' };
const LISBON = { content: 'Peter lives in Lisbon.', entities: PETER, occurredAt: '2025-03-01T00:00:00Z' };

describe.each(STORES)('versions on %s', (_name, makeStore: StoreFactory) => {
  const open: MemoryClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  function client(scope?: { userId: string }, store = makeStore()) {
    const memory = createMemory({ store, logger: quiet, ...(scope ? { scope } : {}) });
    open.push(memory);
    return memory;
  }
  async function retainAll(memory: MemoryClient, inputs: ReadonlyArray<typeof BERLIN>): Promise<string[]> {
    const ids: string[] = [];
    for (const input of inputs) ids.push((await memory.retain(input)).ids[0]!);
    return ids;
  }
  const contents = (history: Awaited<ReturnType<MemoryClient['history']>>) =>
    history.versions.map((version) => version.memory.content);

  it('history reads the whole chain, oldest first, from its oldest, middle and newest id', async () => {
    const memory = client();
    const [berlin, vienna, lisbon] = await retainAll(memory, [BERLIN, VIENNA, LISBON]);
    for (const id of [berlin!, vienna!, lisbon!]) {
      const history = await memory.history(id);
      expect(history.id).toBe(id);
      expect(contents(history)).toEqual([BERLIN.content, VIENNA.content, LISBON.content]);
      expect(history.current).toBe(lisbon);
      const [first, second, third] = history.versions;
      expect(first).toMatchObject({ from: BERLIN.occurredAt.replace('Z', '.000Z'), until: expect.any(String) });
      expect(first!.memory.supersededBy).toBe(vienna);
      expect(first!.reason).toEqual(expect.any(String));
      expect(second!.memory.supersededBy).toBe(lisbon);
      expect(third).toMatchObject({ until: null, reason: null });
    }
  });

  it('history of a chain retained out of order still ends with the newest fact', async () => {
    const memory = client();
    const [lisbon, berlin, vienna] = await retainAll(memory, [LISBON, BERLIN, VIENNA]);
    for (const id of [lisbon!, berlin!, vienna!]) {
      const history = await memory.history(id);
      expect(contents(history)).toEqual([BERLIN.content, VIENNA.content, LISBON.content]);
      expect(history.current).toBe(lisbon);
    }
  });

  it('correcting a version already replaced keeps the chain: in its place when dated before, else the current one', async () => {
    const memory = client();
    const [berlin, vienna, lisbon] = await retainAll(memory, [BERLIN, VIENNA, LISBON]);
    // Dated before Vienna: Hamburg takes Berlin's place, Vienna still follows.
    const hamburg = await memory.correct(berlin!, { content: 'Peter lived in Hamburg.', occurredAt: '2023-06-01' });
    expect(contents(hamburg.history)).toEqual([
      BERLIN.content,
      'Peter lived in Hamburg.',
      VIENNA.content,
      LISBON.content,
    ]);
    expect(hamburg.history.current).toBe(lisbon);
    expect((await memory.get(berlin!))?.supersededBy).toBe(hamburg.id);
    expect((await memory.get(hamburg.id))?.supersededBy).toBe(vienna);
    const then = await memory.recall('where does Peter live', { asOf: '2024-06-01' });
    expect(then.results[0]!.memory.id).toBe(vienna);
    // Undated, a correction of an old version replaces that version in its place: what is true
    // now stays true.
    const porto = await memory.correct(vienna!, 'Peter lived in Porto, not Vienna.');
    expect(porto.history.current).toBe(lisbon);
    expect(contents(porto.history)).toEqual([
      BERLIN.content,
      'Peter lived in Hamburg.',
      VIENNA.content,
      'Peter lived in Porto, not Vienna.',
      LISBON.content,
    ]);
    expect((await memory.get(vienna!))?.supersededBy).toBe(porto.id);
    expect((await memory.get(porto.id))?.supersededBy).toBe(lisbon);
    expect((await memory.get(lisbon!))?.supersededBy).toBeNull();
    expect((await memory.recall('where does Peter live')).results[0]!.memory.id).toBe(lisbon);
    // Dated after Lisbon began, it is a later fact: it corrects what is true now.
    const faro = await memory.correct(berlin!, { content: 'Peter lives in Faro.', occurredAt: '2025-09-01' });
    expect(faro.history.current).toBe(faro.id);
    expect((await memory.get(lisbon!))?.supersededBy).toBe(faro.id);
  });

  it('correcting where I lived before never ends where I live now (“I lived in Graz, not Vienna”)', async () => {
    const memory = client({ userId: 'ann' });
    const vienna = (await memory.retain({ content: 'I live in Vienna.', occurredAt: '2020-05-01T00:00:00Z' })).ids[0]!;
    const lisbon = (await memory.retain({ content: 'I moved to Lisbon.', occurredAt: '2025-02-01T00:00:00Z' })).ids[0]!;
    const corrected = await memory.correct(vienna, 'I lived in Graz, not Vienna.');
    expect(corrected.history.current).toBe(lisbon);
    expect((await memory.get(lisbon))?.supersededBy).toBeNull();
    expect((await memory.get(vienna))?.supersededBy).toBe(corrected.id);
    const now = await memory.recall('where do I live now');
    expect(now.results[0]!.memory.id).toBe(lisbon);
  });

  it('a memory never superseded is a history of one', async () => {
    const memory = client();
    const [id] = await retainAll(memory, [BERLIN]);
    const history = await memory.history(id!);
    expect(history.versions).toHaveLength(1);
    expect(history.current).toBe(id);
  });

  it('correct retains a new version that supersedes the old one, with its kind, category and entities', async () => {
    const memory = client();
    const old = (
      await memory.retain({
        content: 'The team standup is at 9:30.',
        kind: 'experience',
        category: 'schedule',
        entities: ['team'],
      })
    ).ids[0]!;
    const corrected = await memory.correct(old, 'The team standup is at 10:00 since the reorg.');
    expect(corrected.id).not.toBe(old);
    const fresh = await memory.get(corrected.id);
    expect(fresh).toMatchObject({ kind: 'experience', category: 'schedule', entities: ['team'] });
    const before = await memory.get(old);
    expect(before.supersededBy).toBe(corrected.id);
    expect(before.validTo).not.toBeNull();
    expect(contents(corrected.history)).toEqual([
      'The team standup is at 9:30.',
      'The team standup is at 10:00 since the reorg.',
    ]);
    expect(corrected.history.current).toBe(corrected.id);
    // Both ends read the same chain afterwards.
    expect(contents(await memory.history(old))).toEqual(contents(corrected.history));
  });

  it('an admin client’s correction stays in the corrected memory’s scope, seen by its owner', async () => {
    const store = makeStore();
    const admin = client(undefined, store);
    const alice = client({ userId: 'alice' }, store);
    const { ids } = await alice.retain({ ...BERLIN });
    const corrected = await admin.correct(ids[0]!, 'Peter lives in Hamburg.');
    const created = await admin.get(corrected.id);
    expect(created?.scope).toEqual({ userId: 'alice' });
    expect((await alice.get(corrected.id))?.content).toBe('Peter lives in Hamburg.');
    expect((await alice.history(ids[0]!)).current).toBe(corrected.id);
  });

  it('correct keeps what the new input sets over the old memory’s defaults', async () => {
    const memory = client();
    const old = (await memory.retain({ content: 'Mia likes jazz.', kind: 'opinion', entities: ['Mia'] })).ids[0]!;
    const { id } = await memory.correct(old, { content: 'Mia likes techno now.', kind: 'world', entities: ['Mia'] });
    expect(await memory.get(id)).toMatchObject({ kind: 'world', entities: ['Mia'] });
    expect((await memory.get(old)).supersededBy).toBe(id);
  });

  it('recall asOf answers with the version true then first', async () => {
    const memory = client();
    const [berlin, vienna, lisbon] = await retainAll(memory, [BERLIN, VIENNA, LISBON]);
    const now = await memory.recall('where does Peter live');
    expect(now.results[0]?.memory.id).toBe(lisbon);
    const then = await memory.recall('where does Peter live', { asOf: '2024-06-01' });
    expect(then.results[0]?.memory.id).toBe(vienna);
    const earlier = await memory.recall('where does Peter live', { asOf: '2023-12-31' });
    expect(earlier.results[0]?.memory.id).toBe(berlin);
    // The later version is still a result, marked as not yet valid then.
    const later = then.results.find((result) => result.memory.id === lisbon);
    expect(later?.breakdown.validity?.state).toBe('not yet valid');
  });

  it('a scoped client reads no other scope’s versions, and another scope’s id is not found', async () => {
    const store = makeStore();
    const alice = client({ userId: 'alice' }, store);
    const bob = createMemory({ store, logger: quiet, scope: { userId: 'bob' } });
    open.push(bob);
    const [aliceBerlin, aliceVienna] = await retainAll(alice, [BERLIN, VIENNA]);
    const [bobLisbon] = await retainAll(bob, [LISBON]);
    const history = await alice.history(aliceVienna!);
    expect(history.versions.map((version) => version.memory.id)).toEqual([aliceBerlin, aliceVienna]);
    expect(history.versions.every((version) => version.memory.scope.userId === 'alice')).toBe(true);
    // Bob's later fact about Peter supersedes nothing of Alice's.
    expect((await alice.get(aliceVienna!)).supersededBy).toBeNull();
    expect((await bob.history(bobLisbon!)).versions).toHaveLength(1);
    await expect(bob.history(aliceVienna!)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bob.correct(aliceVienna!, 'Peter lives in Porto.')).rejects.toBeInstanceOf(NotFoundError);
    expect((await alice.get(aliceVienna!)).supersededBy).toBeNull();
  });

  it.each([
    ['history', (memory: MemoryClient) => memory.history(''), 'id'],
    ['history', (memory: MemoryClient) => memory.history(42 as unknown as string), 'id'],
    ['correct', (memory: MemoryClient) => memory.correct('', 'text'), 'id'],
    ['correct', (memory: MemoryClient) => memory.correct('mem_x', '   '), 'input'],
    ['correct', (memory: MemoryClient) => memory.correct('mem_x', { content: 3 } as never), 'input'],
    [
      'correct',
      (memory: MemoryClient) => memory.correct('mem_x', { content: 'x', occurredAt: 'someday' }),
      'input.occurredAt',
    ],
    ['correct', (memory: MemoryClient) => memory.correct('mem_x', { content: 'x', importance: 7 }), 'input.importance'],
    ['recall', (memory: MemoryClient) => memory.recall('x', { asOf: 'not a time' }), 'asOf'],
  ])('%s with bad input is a ValidationError naming the field (%#)', async (_call, run, field) => {
    const memory = client();
    const error = await run(memory).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(field);
  });

  it('history and correct of an unknown id are NotFoundError', async () => {
    const memory = client();
    await expect(memory.history('mem_missing')).rejects.toBeInstanceOf(NotFoundError);
    await expect(memory.correct('mem_missing', 'x y z')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('no link crosses a scope', () => {
  it('an admin client cannot end alice’s fact with bob’s memory, and nothing is written', async () => {
    const admin = createMemory({ store: STORES[0]![1](), logger: quiet });
    try {
      const alice = (await admin.retain({ content: 'My PIN is 4827.', scope: { userId: 'alice' } })).ids[0]!;
      const error = await admin
        .retain({ content: 'My PIN is 0000.', scope: { userId: 'bob' }, supersedes: [alice] })
        .catch((caught: unknown) => caught);
      expect(ValidationError.isInstance(error)).toBe(true);
      expect((error as ValidationError).field).toBe('input.supersedes[0]');
      expect((await admin.get(alice))?.supersededBy).toBeNull();
      expect((await admin.list()).map((memory) => memory.content)).toEqual(['My PIN is 4827.']);
    } finally {
      await admin.close();
    }
  });
});
