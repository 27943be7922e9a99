/**
 * memoir — long-term memory for AI agents. The root export holds the engine, the
 * models and ports, the in-memory store and the local embedder; it loads no native
 * module. Adapters with native or network dependencies live on their own subpaths.
 *
 * @module memoir
 */

export { createInMemoryStore, type InMemoryStoreOptions } from './adapters/in-memory/index.js';
export { createLocalEmbedder, type LocalEmbedderOptions } from './adapters/local-embedder/index.js';
export {
  type ConfigSource,
  DEFAULT_CONFIG,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  type MemoirConfig,
} from './core/config.js';
export type { BackgroundErrorEvent, MemoirEvents, MemorySkippedEvent, RecallEvent, SkipReason } from './core/events.js';
export { type ContextTier, citationOf, type FormatContextOptions, formatContext } from './core/format-context.js';
export type {
  ClientDefaults,
  InvalidateOptions,
  ListOptions,
  MemoryClient,
  RetainOptions,
  RetainResult,
} from './core/memory-client.js';
export type { MemoryOptions, RankingOptions } from './core/memory-options.js';
export type {
  Boost,
  ListEvidence,
  RecallOptions,
  RecallResponse,
  RecallResult,
  ScoreBreakdown,
} from './core/recall.js';
export * from './core/spec/index.js';
export { createMemory } from './create-memory.js';
