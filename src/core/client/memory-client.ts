import { type CaptureApi, createCaptureApi } from '../capture/capture-api.js';
import type { CaptureOptions } from '../capture/capture-options.js';
import { type CoreBlockApi, createCoreBlockApi } from '../core-block/core-block-api.js';
import type { MemoirEvents } from '../engine/events.js';
import { createMemoryEngine, type EngineDefaults } from '../engine/memory-engine.js';
import { type AttachmentsApi, createAttachmentsApi } from '../lifecycle/attachments-api.js';
import { type BackupApi, createBackupApi } from '../lifecycle/backup-api.js';
import { createDoctorApi, type DoctorApi } from '../lifecycle/doctor-api.js';
import { createMaintenanceApi, type MaintenanceApi } from '../lifecycle/maintenance-api.js';
import { createStatsApi, type StatsApi } from '../lifecycle/stats-api.js';
import { createMemoriesApi, type MemoriesApi } from '../memories/memories-api.js';
import { createProceduresApi, type ProceduresApi } from '../procedures/procedures-api.js';
import { createRecallApi, type RecallApi } from '../recall/recall-api.js';
import { createReflectApi, type ReflectApi } from '../reflect/reflect-api.js';
import { createRetainApi, type RetainApi } from '../retain/retain-api.js';
import { createSessionsApi, type SessionsApi } from '../sessions/sessions-api.js';
import type { Embedder } from '../spec/embedder.js';
import type { MemoryStore } from '../spec/store.js';
import { createVersionsApi, type VersionsApi } from '../versions/versions-api.js';
import { createWorkspaceApi, type WorkspaceApi } from '../workspace/workspace-api.js';
import { checkListenerArgs } from './listener-args.js';
import { type MemoryOptions, parseMemoryOptions } from './memory-options.js';
import { trackCalls } from './track-calls.js';

/**
 * A memory client: the object agent code talks to. Create one with {@link createMemory}.
 *
 * @group Client
 */
export interface MemoryClient
  extends RetainApi,
    RecallApi,
    MemoriesApi,
    SessionsApi,
    CaptureApi,
    ProceduresApi,
    StatsApi,
    MaintenanceApi,
    BackupApi,
    AttachmentsApi,
    DoctorApi,
    WorkspaceApi,
    ReflectApi,
    CoreBlockApi,
    VersionsApi {
  /** The store in use. */
  readonly store: MemoryStore;
  /** The embedder in use. */
  readonly embedder: Embedder;
  /** Subscribe to an event. An unknown event name or a listener that is not a function is a ValidationError. */
  on<E extends keyof MemoirEvents>(event: E, listener: MemoirEvents[E]): MemoryClient;
  /** Subscribe to the next occurrence of an event. */
  once<E extends keyof MemoirEvents>(event: E, listener: MemoirEvents[E]): MemoryClient;
  /** Unsubscribe. */
  off<E extends keyof MemoirEvents>(event: E, listener: MemoirEvents[E]): MemoryClient;
  /** Wait until queued background work is done. */
  flush(): Promise<void>;
  /** Wait for background work, then close the store. Later calls reject. Calling twice is harmless. */
  close(): Promise<void>;
}

/**
 * Build a client: validate options once (a bad option is a ConfigError), make the engine
 * (taking missing parts from `defaults`), and compose one slice per feature over it.
 */
export function createMemoryClient(options: MemoryOptions | undefined, defaults: EngineDefaults): MemoryClient {
  const settings = parseMemoryOptions(options);
  const engine = createMemoryEngine({ ...settings, procedureDirectory: settings.procedures.directory }, defaults);
  const retain = createRetainApi(engine, {
    extraction: settings.extraction,
    maxMemories: settings.maxMemories,
    retentionAppliesTo: settings.retentionAppliesTo,
  });
  const procedures = createProceduresApi(engine, retain, settings.procedures, settings.video);
  // Every async call is tracked, so close() lets calls already started finish.
  const track = <T extends object>(api: T, methods: Parameters<typeof trackCalls<T>>[2]) =>
    trackCalls(engine, api, methods);

  const { readWithinCall, ...coreBlock } = createCoreBlockApi(engine, {
    root: settings.workspace,
    limit: settings.coreTokenLimit,
  });

  const client: MemoryClient = {
    store: engine.store,
    embedder: engine.embedder,
    ...track(retain, ['retain', 'reextract']),
    ...track(
      createRecallApi(engine, { ranking: settings.ranking, recallK: settings.recallK, core: { get: readWithinCall } }),
      ['recall'],
    ),
    ...track(createMemoriesApi(engine), ['get', 'list', 'count', 'listEntities', 'update', 'forget', 'invalidate']),
    ...track(createSessionsApi(engine), ['resumeSession', 'listSessions', 'deleteSession']),
    ...createCaptureApi(engine, retain, settings.capture as CaptureOptions | undefined),
    ...track(procedures, ['detectWorkflows', 'createWorkflowFromSession', 'suggest', 'warn', 'analyzePatterns']),
    procedures: track(procedures.procedures, [
      'learn',
      'findRelevant',
      'recordUse',
      'stale',
      'save',
      'get',
      'list',
      'delete',
      'invalidFiles',
      'fromRecording',
    ]),
    ...track(createStatsApi(engine, { maxSizeMb: settings.maxSizeMb }), ['stats']),
    ...track(
      createMaintenanceApi(engine, {
        retentionDays: settings.retentionDays,
        retentionAppliesTo: settings.retentionAppliesTo,
        schedule: settings.schedule,
      }),
      ['reindex', 'cleanup', 'consolidate'],
    ),
    ...track(createBackupApi(engine), [
      'backup',
      'restore',
      'clearAll',
      'import',
      'listBackups',
      'verifyBackup',
      'inspectBackup',
    ]),
    ...track(createVersionsApi(engine, retain), ['history', 'correct']),
    ...track(createAttachmentsApi(engine), ['attach', 'readAttachment']),
    ...track(createDoctorApi(engine), ['doctor']),
    ...createWorkspaceApi(engine, { root: settings.workspace }),
    ...track(
      createReflectApi(engine, { root: settings.workspace, schedule: settings.reflect, hour: settings.schedule?.hour }),
      ['reflect'],
    ),
    ...coreBlock,
    on(event, listener) {
      checkListenerArgs('on', event, listener);
      engine.events.on(event, listener as never);
      return client;
    },
    once(event, listener) {
      checkListenerArgs('once', event, listener);
      engine.events.once(event, listener as never);
      return client;
    },
    off(event, listener) {
      checkListenerArgs('off', event, listener);
      engine.events.off(event, listener as never);
      return client;
    },
    flush: () => engine.flush(),
    close: () => engine.close(),
  } satisfies MemoryClient;
  return client;
}
