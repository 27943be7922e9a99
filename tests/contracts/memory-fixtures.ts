import { type Memory, memorySchema } from '../../src/core/spec/memory.js';
import {
  type Entity,
  entitySchema,
  type Opinion,
  opinionSchema,
  type Procedure,
  procedureSchema,
  type Session,
  sessionSchema,
} from '../../src/core/spec/records.js';
import type { EmbedderIdentity, MemoryStore } from '../../src/core/spec/store.js';

/** The timestamp fixtures use when a test doesn't care. */
export const FIXTURE_TIME = '2025-01-01T00:00:00.000Z';

/** An ISO timestamp `days` days after {@link FIXTURE_TIME}. */
export function day(days: number): string {
  return new Date(Date.parse(FIXTURE_TIME) + days * 86_400_000).toISOString();
}

let counter = 0;

function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}_${String(counter).padStart(5, '0')}`;
}

/**
 * A valid {@link Memory} with neutral defaults, overridden field by field. Parsed with
 * `memorySchema`, so a fixture the engine could never produce fails loudly.
 */
export function makeMemory(overrides: Partial<Memory> = {}): Memory {
  const id = overrides.id ?? nextId('mem');
  return memorySchema.parse({
    id,
    kind: 'world',
    category: 'note',
    abstract: '',
    overview: null,
    content: `Memory ${id}.`,
    entities: [],
    scope: {},
    sessionId: null,
    source: null,
    occurredAt: FIXTURE_TIME,
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
    validFrom: FIXTURE_TIME,
    validTo: null,
    invalidationReason: null,
    supersededBy: null,
    importance: 0.5,
    bookmarked: false,
    accessCount: 0,
    lastAccessedAt: null,
    fingerprint: `fp-${id}`,
    metadata: {},
    ...overrides,
  });
}

/** A valid {@link Opinion}, overridden field by field. */
export function makeOpinion(overrides: Partial<Opinion> = {}): Opinion {
  return opinionSchema.parse({
    id: nextId('op'),
    statement: 'Peter prefers tea.',
    entity: 'Peter',
    confidence: 0.7,
    supporting: [],
    contradicting: [],
    history: [],
    scope: {},
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
    ...overrides,
  });
}

/** A valid {@link Procedure}, overridden field by field. */
export function makeProcedure(overrides: Partial<Procedure> = {}): Procedure {
  return procedureSchema.parse({
    id: nextId('proc'),
    title: 'Investigate deployment failures',
    triggerExamples: ['the deploy failed'],
    steps: ['Open the CI log', 'Find the first error'],
    whatWorks: [],
    whatDoesNotWork: [],
    outputFormat: null,
    successCount: 0,
    failureCount: 0,
    lastUsedAt: null,
    source: 'manual',
    videoEvidence: [],
    scope: {},
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
    metadata: {},
    ...overrides,
  });
}

/** A valid {@link Session}, overridden field by field. */
export function makeSession(overrides: Partial<Session> = {}): Session {
  return sessionSchema.parse({
    id: nextId('ses'),
    scope: {},
    startedAt: FIXTURE_TIME,
    endedAt: null,
    memoryCount: 0,
    summary: null,
    metadata: {},
    ...overrides,
  });
}

/** A valid {@link Entity}, overridden field by field. */
export function makeEntity(overrides: Partial<Entity> = {}): Entity {
  return entitySchema.parse({
    id: nextId('ent'),
    slug: 'peter',
    name: 'Peter',
    summary: null,
    memoryCount: 0,
    scope: {},
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
    ...overrides,
  });
}

/** `values` scaled to unit length (returned unchanged when all zero). */
export function normalize(values: readonly number[]): Float32Array {
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  return Float32Array.from(values, (value) => (norm === 0 ? value : value / norm));
}

/**
 * A deterministic pseudo-random number generator in [0, 1) (mulberry32: tiny, seedable, good
 * enough for test data): the same `seed` always gives the same sequence.
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A deterministic pseudo-random unit vector: the same `seed` always gives the same vector. */
export function unitVector(dims: number, seed: number): Float32Array {
  const random = prng(seed);
  const values = Array.from({ length: dims }, () => random() * 2 - 1);
  return normalize(values);
}

/** The unit vector along axis `axis` (negated when `sign` is -1). */
export function axisVector(dims: number, axis: number, sign: 1 | -1 = 1): Float32Array {
  const vector = new Float32Array(dims);
  vector[axis] = sign;
  return vector;
}

/** Cosine similarity computed in double precision, the oracle for vector scores. */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(normA * normB);
}

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
  await store.upsertMemories(
    memories.map((memory, index) => ({
      memory,
      embedding: index === 2 ? null : unitVector(TRANSFER_EMBEDDER.dimensions, index),
    })),
  );
  await store.opinions.upsert([makeOpinion(shapes.opinionRecord)]);
  await store.procedures.upsert([makeProcedure({ steps: ['one', 'two'] })]);
  await store.sessions.upsert([makeSession({ id: 'session_1', memoryCount: 1 })]);
  await store.entities.upsert([makeEntity({ name: 'Peter', slug: 'peter', memoryCount: 1 })]);
}
