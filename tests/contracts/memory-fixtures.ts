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

/** A deterministic pseudo-random unit vector: the same `seed` always gives the same vector. */
export function unitVector(dims: number, seed: number): Float32Array {
  // mulberry32: tiny, seedable, good enough to spread vectors around the sphere.
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
