/**
 * Test doubles for code that uses memoir: a scripted language model, a deterministic
 * embedder and an in-memory store. Each keeps its state per instance, so create a
 * fresh one per test. Also record builders and vectors for seeding a store directly, and
 * the bulk-change path, for the authors of a store (whose contract suites live on
 * `memoir/testing/contracts`).
 *
 * ```ts
 * import { createScriptedLanguageModel, createTestEmbedder, createTestStore } from 'memoir/testing';
 * ```
 *
 * @module memoir/testing
 */
export {
  createInMemoryStore as createTestStore,
  type InMemoryStoreOptions as TestStoreOptions,
} from '../adapters/in-memory/index.js';
export {
  type AtomicChangeOptions,
  type AtomicChangeResult,
  type BulkWriter,
  changeAtomically,
} from './bulk-change.js';
export { day, FIXTURE_TIME, makeEntity, makeMemory, makeOpinion, makeProcedure, makeSession } from './records.js';
export {
  createScriptedLanguageModel,
  type LanguageModelScript,
  type ScriptedLanguageModel,
  type ScriptedResponse,
  type ScriptedResult,
  type ScriptFunction,
} from './scripted-language-model.js';
export {
  type DerivedStore,
  derivedStore,
  type RecordCollection,
  type ResolvedStoreCapabilities,
  resolveStoreCapabilities,
} from './store-seams.js';
export { createTestEmbedder, type TestEmbedder, type TestEmbedderOptions } from './test-embedder.js';
export { createCounterIds, createFixedClock, type FixedClock } from './test-runtime.js';
export { axisVector, cosineSimilarity, unitVector } from './vectors.js';
