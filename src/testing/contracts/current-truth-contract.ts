import { describe, expect } from 'vitest';
import { createMemory, type MemoryClient, type MemoryStore, NotFoundError } from '../../index.js';
import { createFixedClock } from '../test-runtime.js';
import { type ContractSkip, contractTests } from './contract-skips.js';

/**
 * A store for one test of {@link runCurrentTruthContract}.
 *
 * @group Testing
 */
export interface CurrentTruthStore {
  /** The fresh, empty, unopened store. */
  store: MemoryStore;
  /**
   * When the store keeps its data: a new store over the same data (as a new process would
   * open it), so history is checked across a reopen.
   */
  reopen?: () => MemoryStore;
}

/**
 * How to run {@link runCurrentTruthContract} against one store.
 *
 * @group Testing
 */
export interface CurrentTruthContractOptions {
  /** The store's name, shown in the suite title. */
  name: string;
  /** A fresh, empty, unopened store, called once per test, and how to open its data again. */
  create: () => CurrentTruthStore;
  /** Tests the store cannot pass, each group with the reason; names are test titles. */
  skip?: readonly ContractSkip[];
}

// Supersession, `asOf` and history behave the same on every store: the links live in
// `validTo` / `supersededBy` / `metadata.supersedes`, which every store must keep exactly,
// and the rules find older facts through the store's own lexical search and scope filter.
/**
 * Declare the current-truth contract for one store: supersession, `asOf` and history, through
 * a client over the store — a newer fact supersedes an older one of the same attribute, late
 * arrivals land in their place in the chain, and the links survive a reopen. Call it at the
 * top level of a vitest test file.
 *
 * @group Testing
 */
export function runCurrentTruthContract(options: CurrentTruthContractOptions): void {
  const { test: it, checkSkipList } = contractTests(`current truth contract: ${options.name}`, options.skip);
  const clock = createFixedClock(Date.parse('2026-01-15T12:00:00Z'));
  const client = (store: MemoryStore, userId?: string): MemoryClient =>
    createMemory({ store, clock, logger: { log() {} }, ...(userId ? { scope: { userId } } : {}) });

  describe(`current truth contract: ${options.name}`, () => {
    it('a newer fact supersedes an older one of the same attribute, and recall puts it first', async () => {
      const { store } = options.create();
      const memory = client(store);
      const [berlin] = (await memory.retain({ content: 'I live in Berlin.', occurredAt: '2023-03-01' })).ids;
      const [lisbon] = (await memory.retain({ content: 'I moved to Lisbon.', occurredAt: '2025-05-01' })).ids;
      expect(await memory.get(berlin!)).toMatchObject({ supersededBy: lisbon, validTo: '2025-05-01T00:00:00.000Z' });
      expect((await memory.get(lisbon!))?.metadata.supersedes).toEqual([berlin]);
      const found = await memory.recall('where do I live, Berlin?');
      expect(found.results.map((result) => result.memory.id).slice(0, 2)).toEqual([lisbon, berlin]);
      expect(found.results[1]!.breakdown.validity?.state).toBe('superseded');
      await memory.close();
    });

    it('late arrivals land in their place in the chain; history reads it from any version', async () => {
      const { store, reopen } = options.create();
      let memory = client(store);
      const [lisbon] = (await memory.retain({ content: 'I live in Lisbon.', occurredAt: '2025-05-01' })).ids;
      const [berlin] = (await memory.retain({ content: 'I live in Berlin.', occurredAt: '2023-03-01' })).ids;
      const [vienna] = (await memory.retain({ content: 'I moved to Vienna.', occurredAt: '2024-02-01' })).ids;
      if (reopen) {
        await memory.close();
        memory = client(reopen());
      }
      for (const id of [berlin!, vienna!, lisbon!]) {
        const history = await memory.history(id);
        expect(history.versions.map((version) => version.memory.id)).toEqual([berlin, vienna, lisbon]);
        expect(history.current).toBe(lisbon);
      }
      expect((await memory.get(berlin!))?.supersededBy).toBe(vienna);
      expect((await memory.get(vienna!))?.supersededBy).toBe(lisbon);
      expect((await memory.get(lisbon!))?.metadata.supersedes).toEqual([vienna]);
      const then = await memory.recall('where do I live', { asOf: '2024-06-01' });
      expect(then.results[0]!.memory.id).toBe(vienna);
      const before = await memory.recall('where did I live before Lisbon');
      expect(before.results[0]!.memory.id).not.toBe(lisbon);
      await memory.close();
    });

    it('reads a move said with a pronoun and no verb of living, and recall asks the timeline for it', async () => {
      const { store } = options.create();
      const memory = client(store);
      const [madrid] = (await memory.retain({ content: 'Elena lives in Madrid.', occurredAt: '2019-04-01' })).ids;
      const [barcelona] = (
        await memory.retain({ content: 'Elena moved from Madrid to Barcelona.', occurredAt: '2021-09-01' })
      ).ids;
      const [valencia] = (
        await memory.retain({
          content: "Elena left Barcelona again; she's in Valencia now, near the beach.",
          occurredAt: '2025-02-01',
        })
      ).ids;
      await memory.retain({ content: 'Barcelona has the best tapas bars in Spain.', occurredAt: '2024-01-01' });
      expect((await memory.get(barcelona!))?.supersededBy).toBe(valencia);
      expect((await memory.get(madrid!))?.supersededBy).toBe(barcelona);
      const now = await memory.recall('where does Elena live now?', { explain: true });
      expect(now.results[0]!.memory.id).toBe(valencia);
      expect(now.results[0]!.explanation).toContain('elena residence: valencia');
      const then = await memory.recall('where does Elena live?', { asOf: '2022-06-01' });
      expect(then.results[0]!.memory.id).toBe(barcelona);
      await memory.close();
    });

    it('a captured tool output, a document, a quote or another speaker never ends what the user said', async () => {
      const { store } = options.create();
      const memory = client(store);
      const [vienna] = (await memory.retain({ content: 'I live in Vienna.', occurredAt: '2024-01-01' })).ids;
      await memory.retain({
        content: 'Profile page: I moved to Berlin last month and love it.',
        occurredAt: '2025-01-01',
        metadata: { captured: true },
      });
      await memory.retain({ content: 'Mallory said: "I moved to Lisbon."', occurredAt: '2025-02-01' });
      await memory.retain({
        content: 'The user relocated to Oslo in March.',
        occurredAt: '2025-03-01',
        source: { url: 'https://example.com/profile', origin: 'document' },
      });
      const [mallory] = (
        await memory.retain({
          content: 'I live in Porto now.',
          occurredAt: '2025-04-01',
          source: { speaker: 'Mallory' },
        })
      ).ids;
      expect((await memory.get(vienna!))?.supersededBy).toBeNull();
      // A speaker's "I" is the speaker: the claim is Mallory's own.
      expect((await memory.get(mallory!))?.metadata.claims).toEqual([
        expect.objectContaining({ subject: 'mallory', family: 'residence', value: 'porto' }),
      ]);
      const found = await memory.recall('where do I live now?');
      expect(found.results[0]!.memory.id).toBe(vienna);
      await memory.close();
    });

    it('never supersedes across scopes', async () => {
      const { store } = options.create();
      const admin = client(store);
      const alice = client(store, 'alice');
      const bob = client(store, 'bob');
      const [aliceBerlin] = (await alice.retain({ content: 'I live in Berlin.', occurredAt: '2023-03-01' })).ids;
      const [bobLisbon] = (await bob.retain({ content: 'I moved to Lisbon.', occurredAt: '2025-05-01' })).ids;
      expect((await admin.get(aliceBerlin!))?.supersededBy).toBeNull();
      expect((await admin.get(bobLisbon!))?.metadata.supersedes).toBeUndefined();
      expect(NotFoundError.isInstance(await alice.history(bobLisbon!).catch((error: unknown) => error))).toBe(true);
      const [aliceLisbon] = (await alice.retain({ content: 'I moved to Lisbon.', occurredAt: '2025-06-01' })).ids;
      expect((await admin.get(aliceBerlin!))?.supersededBy).toBe(aliceLisbon);
      expect((await bob.history(bobLisbon!)).versions).toHaveLength(1);
      await admin.close();
    });

    it('correct retains the new version superseding the old in one call', async () => {
      const { store } = options.create();
      const memory = client(store);
      const [old] = (
        await memory.retain({ content: 'The kickoff is on the 3rd.', category: 'events', entities: ['Kickoff'] })
      ).ids;
      const { id, history } = await memory.correct(old!, 'The kickoff is on the 5th.');
      expect(history.versions.map((version) => version.memory.id)).toEqual([old, id]);
      expect(await memory.get(id)).toMatchObject({ category: 'events', entities: ['Kickoff'] });
      expect((await memory.get(old!))?.supersededBy).toBe(id);
      await memory.close();
    });

    checkSkipList();
  });
}
