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
  type AuditLine,
  builtInRedactionRules,
  type Capture,
  type CaptureClient,
  type CaptureEvent,
  type CaptureOptions,
  type CaptureResult,
  createCapture,
  type RedactionRule,
  redactText,
  redactValue,
  type WithCaptureOptions,
  withCapture,
} from './core/capture/index.js';
export type {
  ClientDefaults,
  InvalidateOptions,
  ListOptions,
  MemoryClient,
  MemoryStats,
  ReindexOptions,
  ReindexResult,
  RetainOptions,
  RetainResult,
} from './core/client/memory-client.js';
export type { ExtractionOptions, MemoryOptions, RankingOptions } from './core/client/memory-options.js';
export {
  type ConfigSource,
  DEFAULT_CONFIG,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  type MemoirConfig,
} from './core/config/load-config.js';
export type {
  BackgroundErrorEvent,
  ExtractionFailedEvent,
  MemoirEvents,
  MemorySkippedEvent,
  RecallEvent,
  SkipReason,
} from './core/engine/events.js';
export type { Attachment } from './core/lifecycle/attachments.js';
export type {
  BackupCounts,
  BackupInfo,
  RestoreReport,
} from './core/lifecycle/backup/index.js';
export {
  type CleanupResult,
  type ConsolidateResult,
  type ConsolidationRecord,
  importanceScore,
  isProtected,
} from './core/lifecycle/retention.js';
export type { ImportResult } from './core/lifecycle/transfer.js';
export type {
  ActionWarning,
  Alternative,
  AnalyzePatternsOptions,
  DetectedWorkflow,
  DetectWorkflowsOptions,
  PatternAnalysis,
  PlannedAction,
  Suggestion,
  ToolPattern,
} from './core/procedures/workflows.js';
export {
  type ContextTier,
  citationOf,
  type FormatContextOptions,
  formatContext,
} from './core/recall/format-context.js';
export {
  type Boost,
  explainScore,
  type ListEvidence,
  type RecallOptions,
  type RecallResponse,
  type RecallResult,
  type ScoreBreakdown,
} from './core/recall/rank.js';
export type {
  ConversationInput,
  ConversationMessage,
} from './core/retain/conversation/conversation-input.js';
export {
  PIPELINE_STAGES,
  type PipelineStage,
  type PipelineStats,
  type StageStats,
} from './core/retain/conversation/pipeline-stats.js';
export type { ConversationRetainResult } from './core/retain/conversation/retain-conversation.js';
export type { SessionSummary, Tally } from './core/sessions/session-summaries.js';
export type { Embedder, EmbedOptions } from './core/spec/embedder.js';
export {
  ConfigError,
  MemoirError,
  type MemoirErrorCode,
  type MemoirErrorOptions,
  NotFoundError,
  ProviderError,
  StoreError,
  ValidationError,
  type ValidationIssue,
} from './core/spec/errors.js';
export type {
  GenerateRequest,
  GenerateResult,
  ImagePart,
  LanguageModel,
  ModelMessage,
  TokenUsage,
} from './core/spec/language-model.js';
export {
  type IsoTimestamp,
  type JsonValue,
  KNOWN_CATEGORIES,
  MEMORY_KINDS,
  type Memory,
  type MemoryCategory,
  type MemoryInput,
  type MemoryKind,
  type MemoryPatch,
  type Metadata,
  type Scope,
  type Source,
  type TimeInput,
} from './core/spec/memory.js';
export {
  type ConfidenceChange,
  type Entity,
  type Opinion,
  PROCEDURE_SOURCES,
  type Procedure,
  type Session,
  type VideoEvidence,
} from './core/spec/records.js';
export type { Clock, IdGenerator, Logger, LogLevel } from './core/spec/runtime.js';
export type {
  EmbedderIdentity,
  LexicalSearchQuery,
  ListMemoriesQuery,
  MemoryFilter,
  MemoryOrder,
  MemoryRecord,
  MemoryStore,
  RecordCollection,
  SearchHit,
  StoreCapabilities,
  StoreStats,
  VectorSearchQuery,
} from './core/spec/store.js';
export type {
  VideoClip,
  VideoProvider,
  VideoSearchQuery,
  VideoState,
  VideoStatus,
  VideoUpload,
  VideoUploaded,
} from './core/spec/video-provider.js';
export { createMemory } from './create-memory.js';
