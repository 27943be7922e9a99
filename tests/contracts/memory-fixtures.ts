import type { Memory } from '../../src/core/spec/memory.js';
import type { Opinion } from '../../src/core/spec/records.js';
import type { EmbedderIdentity, MemoryStore } from '../../src/core/spec/store.js';
import { day, makeEntity, makeMemory, makeOpinion, makeProcedure, makeSession } from '../../src/testing/records.js';
import { unitVector } from '../../src/testing/vectors.js';

// The record builders and vectors moved into the package (src/testing, shipped on
// `memoir/testing`); this path stays for the tests that import them from here.
export {
  day,
  FIXTURE_TIME,
  makeEntity,
  makeMemory,
  makeOpinion,
  makeProcedure,
  makeSession,
} from '../../src/testing/records.js';
export { axisVector, cosineSimilarity, normalize, prng, unitVector } from '../../src/testing/vectors.js';

/** The embedder identity the transfer and backup tests open their stores with. */
export const TRANSFER_EMBEDDER: EmbedderIdentity = { id: 'test:hash', dimensions: 8 };

/** What differs between the stores {@link seedEveryKind} fills for different tests. */
export interface SeedShapes {
  /** Extra fields of the second memory, an opinion in session_1 with an overview. */
  opinion: Partial<Memory>;
  /** The third memory, stored without an embedding. */
  unembedded: Partial<Memory>;
  /** Fields of the one opinion record. */
  opinionRecord?: Partial<Opinion>;
}

/**
 * Upsert three memories (Peter's tea, an opinion, and `unembedded`; the first two with
 * seeded unit vectors of {@link TRANSFER_EMBEDDER}'s size), then one opinion, one procedure,
 * session_1 and Peter's entity: a store with one record of every kind, for export, import,
 * backup and restore tests.
 */
export async function seedEveryKind(store: MemoryStore, shapes: SeedShapes): Promise<void> {
  const memories = [
    makeMemory({ createdAt: day(2), content: 'Peter prefers tea.', entities: ['Peter'], scope: { userId: 'u1' } }),
    makeMemory({
      createdAt: day(1),
      kind: 'opinion',
      category: 'preferences',
      overview: 'An overview — with “Unicode” and emoji 🍵.',
      sessionId: 'session_1',
      bookmarked: true,
      importance: 0.9,
      ...shapes.opinion,
    }),
    makeMemory(shapes.unembedded),
  ];
  await store.put(
    'memory',
    memories.map((memory, index) => ({
      memory,
      embedding: index === 2 ? null : unitVector(TRANSFER_EMBEDDER.dimensions, index),
    })),
  );
  await store.put('opinion', [makeOpinion(shapes.opinionRecord)]);
  await store.put('procedure', [makeProcedure({ steps: ['one', 'two'] })]);
  await store.put('session', [makeSession({ id: 'session_1', memoryCount: 1 })]);
  await store.put('entity', [makeEntity({ name: 'Peter', slug: 'peter', memoryCount: 1 })]);
}
