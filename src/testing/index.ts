/**
 * Test doubles for code that uses memoir: a scripted language model, a deterministic
 * embedder and an in-memory store. Each keeps its state per instance, so create a
 * fresh one per test.
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
  createScriptedLanguageModel,
  type LanguageModelScript,
  type ScriptedLanguageModel,
  type ScriptedResponse,
  type ScriptedResult,
  type ScriptFunction,
} from './scripted-language-model.js';
export { createTestEmbedder, type TestEmbedder, type TestEmbedderOptions } from './test-embedder.js';
export { createCounterIds, createFixedClock, type FixedClock } from './test-runtime.js';
