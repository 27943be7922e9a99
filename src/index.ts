/**
 * memoir — long-term memory for AI agents. The root export holds the engine, the
 * models and ports, the in-memory store and the local embedder; it loads no native
 * module. Adapters with native or network dependencies live on their own subpaths.
 *
 * @groupDescription Client
 * {@link createMemory} returns a {@link MemoryClient}, composed of one slice per feature
 * (`RetainApi`, `RecallApi`, …) so a host can type the part it uses.
 *
 * @groupDescription Retain
 * Storing memories one by one, in batches, or learning from whole conversations.
 *
 * @groupDescription Recall
 * Finding memories for a query, and putting them into a prompt.
 *
 * @groupDescription Procedures
 * `memory.procedures`: procedures learned from finished tasks, kept as Markdown files a
 * person can edit, found for similar requests and put into prompts.
 *
 * @groupDescription Models
 * What memoir stores: memories and the records around them (opinions, procedures,
 * sessions, entities).
 *
 * @groupDescription Ports
 * The interfaces a store, an embedder, a language model, a clock or a logger implements;
 * pass your own to {@link createMemory}.
 *
 * @groupDescription Adapters
 * Ready-made implementations of the ports that need no native module.
 *
 * @module memoir
 */

export { createInMemoryStore, type InMemoryStoreOptions } from './adapters/in-memory/index.js';
export { createLocalEmbedder, type LocalEmbedderOptions } from './adapters/local-embedder/index.js';
export { memoryOptionsFromConfig } from './config/config-options.js';
export {
  type ConfigSource,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  type SettingInEffect,
  settingsInEffect,
} from './config/load-config.js';
export { DEFAULT_CONFIG, type MemoirConfig } from './config/memoir-config.js';
export type { BackupDescription, BackupSummary } from './core/backup/backup-list.js';
export type { BackupCounts, BackupInfo, BackupListing, RestoreReport } from './core/backup/index.js';
export type { ImportInvalidLine, ImportResult } from './core/backup/transfer.js';
export type { CaptureApi } from './core/capture/capture-api.js';
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
export type { MemoryClient } from './core/client/memory-client.js';
export type { MemoryOptions } from './core/client/memory-options.js';
export type { ConversationInput, ConversationMessage } from './core/conversation/conversation-input.js';
export { TURN_WINDOW } from './core/conversation/session-turns.js';
export {
  type CoreBlock,
  type CoreBlockApi,
  type CoreBlockCallOptions,
  type CoreBlockState,
  DEFAULT_CORE_TOKENS,
} from './core/core-block/core-block-api.js';
export type {
  BackgroundErrorEvent,
  ExtractionFailedEvent,
  MemoirEvents,
  MemorySkippedEvent,
  ProcedureFailedEvent,
  ProcedureUpdatedEvent,
  RecallEvent,
  ReflectStoppedEvent,
  SkippedWorkspaceFile,
  SkipReason,
  WorkspaceIndexedEvent,
} from './core/engine/events.js';
export type { PipelineStage, PipelineStats, StageStats } from './core/engine/pipeline-stats.js';
export type { Attachment } from './core/lifecycle/attachments.js';
export type { AttachmentsApi } from './core/lifecycle/attachments-api.js';
export type {
  BackupApi,
  BackupCallOptions,
  ImportCallOptions,
  RestoreCallOptions,
} from './core/lifecycle/backup-api.js';
export type { CleanupResult } from './core/lifecycle/cleanup.js';
export type { ConsolidateResult, ConsolidationRecord } from './core/lifecycle/consolidate.js';
export type { DoctorApi, DoctorReport } from './core/lifecycle/doctor-api.js';
export type {
  CleanupRunOptions,
  ConsolidateRunOptions,
  MaintenanceApi,
  ReindexOptions,
  ReindexResult,
} from './core/lifecycle/maintenance-api.js';
export type { MemoryStats, StatsApi } from './core/lifecycle/stats-api.js';
export type {
  CountOptions,
  InvalidateOptions,
  ListEntitiesOptions,
  ListOptions,
  MemoriesApi,
} from './core/memories/memories-api.js';
export type { AnalyzePatternsOptions, PatternAnalysis, ToolPattern } from './core/procedures/analyze-patterns.js';
export type { DetectedWorkflow, DetectWorkflowsOptions } from './core/procedures/detect-workflows.js';
export {
  type FormatProceduresOptions,
  formatProcedures,
} from './core/procedures/format-procedures.js';
export {
  type FormatRecordedStepsOptions,
  formatRecordedSteps,
} from './core/procedures/format-recorded-steps.js';
export type { BrokenProcedureFile } from './core/procedures/procedure-index.js';
export type {
  FindProceduresOptions,
  FoundProcedure,
  LearnResult,
  ProcedureInput,
  ProcedureScopeOptions,
  ReflectCheck,
  TaskToolCall,
  TaskTrace,
} from './core/procedures/procedure-inputs.js';
export type { ProcedureLibraryApi } from './core/procedures/procedure-library-api.js';
export {
  LEXICAL_PROCEDURE_THRESHOLDS,
  type ProcedureOptions,
  type ProcedureThresholds,
  SEMANTIC_PROCEDURE_THRESHOLDS,
} from './core/procedures/procedure-options.js';
export type { ProceduresApi } from './core/procedures/procedures-api.js';
export type { VideoOptions } from './core/procedures/recording-options.js';
export type {
  FromRecordingOptions,
  RecordedSpan,
  RecordingEvidence,
  RecordingProcedure,
} from './core/procedures/recording-types.js';
export type { Suggestion } from './core/procedures/suggest.js';
export type { ActionWarning, Alternative, PlannedAction } from './core/procedures/warn.js';
export type { CoreBlockInContext } from './core/recall/core-block-budget.js';
export { EXPAND_MODES, type ExpandMode } from './core/recall/expand-turns.js';
export type { RecallApi } from './core/recall/recall-api.js';
export type { RecallIntent } from './core/recall/recall-intent.js';
export type { RankingOptions, RecallOptions } from './core/recall/recall-options.js';
export type {
  Boost,
  ListEvidence,
  RecallResponse,
  RecallResult,
  ScoreBreakdown,
  ValidityNote,
} from './core/recall/recall-result.js';
export type { InferredRetain, RetainInference, SkippedRetain } from './core/reflect/infer-retain.js';
export type { OpinionChange, ReflectApi, ReflectOptions, ReflectReport } from './core/reflect/reflect-api.js';
export type { ExtractionOptions } from './core/retain/conversation/extraction-options.js';
export type { ReextractResult, ReextractTarget } from './core/retain/conversation/reextract.js';
export type { ConversationRetainResult } from './core/retain/conversation/retain-conversation.js';
export type { RetainApi } from './core/retain/retain-api.js';
export type { RetainOptions, RetainResult } from './core/retain/retain-options.js';
export { RETENTION_ORIGINS, type RetentionOrigin } from './core/retention/protection.js';
export type { ReflectScheduleOptions } from './core/schedule/reflect-schedule.js';
export { memoryMatches } from './core/search/memory-filter.js';
export type { SessionStart, SessionsApi } from './core/sessions/sessions-api.js';
export {
  type ContextTier,
  citationOf,
  type FormatContextOptions,
  formatContext,
} from './core/shared/format-context.js';
export type { SessionSummary, Tally } from './core/shared/session-summaries.js';
export type { Embedder, EmbedderFusion, EmbedOptions } from './core/spec/embedder.js';
export {
  ConfigError,
  type ErrorHint,
  MemoirError,
  type MemoirErrorCode,
  type MemoirErrorOptions,
  NotFoundError,
  ProviderError,
  StoreError,
  ValidationError,
  type ValidationIssue,
} from './core/spec/errors.js';
export type { FrameExtractionRequest, FrameExtractor, KeyFrame } from './core/spec/frame-extractor.js';
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
export {
  type CrossProcessGuarantee,
  type EmbedderIdentity,
  type LexicalSearchQuery,
  type ListMemoriesQuery,
  type ListQuery,
  type MemoryFilter,
  type MemoryOrder,
  type MemoryRecord,
  type MemoryStore,
  type MemoryStoreWith,
  type OptionalStoreMember,
  RECORD_KINDS,
  type RecordCollectionKey,
  type RecordedEmbedder,
  type RecordKind,
  type RecordListQuery,
  type SearchHit,
  type StageChangeOptions,
  type StagedChange,
  type StagedRemovals,
  type StoreCapabilities,
  type StoreCheck,
  type StoredRecord,
  type StoreRecordKinds,
  type StoreStats,
  type TransactionGuarantee,
  type UnembeddedQuery,
  type VectorSearchQuery,
  type WrittenRecord,
} from './core/spec/store.js';
export type {
  VideoCaption,
  VideoClip,
  VideoProvider,
  VideoSearchMode,
  VideoSearchQuery,
  VideoSpanOptions,
  VideoState,
  VideoStatus,
  VideoUpload,
  VideoUploaded,
} from './core/spec/video-provider.js';
export type { ResolvedStoreCapabilities } from './core/utils/store-capabilities.js';
export type { CorrectionResult, MemoryHistory, MemoryVersion, VersionsApi } from './core/versions/versions-api.js';
export type { WorkspaceApi, WorkspaceFacet, WorkspaceIndexOptions } from './core/workspace/workspace-api.js';
export type { WorkspaceWatch, WorkspaceWatchOptions } from './core/workspace/workspace-watch.js';
export type { SectionStatus } from './core/workspace-format/generated-section.js';
export type { WorkspaceWarning } from './core/workspace-format/workspace-chunks.js';
export type { WorkspaceIndexReport } from './core/workspace-format/workspace-index.js';
export { createMemory } from './create-memory.js';
export { createWorkspace, type WorkspaceOptions, workspaceIndexPath } from './workspace.js';
