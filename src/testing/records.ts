import { type Memory, memorySchema } from '../core/spec/memory.js';
import {
  type Entity,
  entitySchema,
  type Opinion,
  opinionSchema,
  type Procedure,
  procedureSchema,
  type Session,
  sessionSchema,
} from '../core/spec/records.js';

/**
 * The timestamp the record builders use when a test does not care: 2025-01-01T00:00:00.000Z.
 *
 * @group Testing
 */
export const FIXTURE_TIME = '2025-01-01T00:00:00.000Z';

/**
 * An ISO timestamp `days` days after {@link FIXTURE_TIME} (before it when negative).
 *
 * @group Testing
 */
export function day(days: number): string {
  return new Date(Date.parse(FIXTURE_TIME) + days * 86_400_000).toISOString();
}

let counter = 0;

function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}_${String(counter).padStart(5, '0')}`;
}

/**
 * A valid {@link Memory} with neutral defaults (scope `{}`, every time {@link FIXTURE_TIME}, a
 * fresh id), overridden field by field — for seeding a store directly, below the client.
 * Checked against memoir's memory schema, so a record the engine could never write throws
 * at once rather than confusing the store under test.
 *
 * @example
 * ```ts
 * await store.upsertMemories([{ memory: makeMemory({ id: 'a', content: 'Peter prefers tea.' }), embedding: null }]);
 * ```
 *
 * @group Testing
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

/**
 * A valid {@link Opinion} ("Peter prefers tea.", confidence 0.7), overridden field by field.
 *
 * @group Testing
 */
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

/**
 * A valid {@link Procedure} (two steps, written by hand), overridden field by field.
 *
 * @group Testing
 */
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

/**
 * A valid, open {@link Session}, overridden field by field.
 *
 * @group Testing
 */
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

/**
 * A valid {@link Entity} (Peter), overridden field by field.
 *
 * @group Testing
 */
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
