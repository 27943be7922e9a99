import { join } from 'node:path';
import { type CaptureApi, createCaptureApi } from '../capture/capture-api.js';
import type { CaptureOptions } from '../capture/capture-options.js';
import { type CoreBlockApi, createCoreBlockApi } from '../core-block/core-block-api.js';
import type { MemoirEvents } from '../engine/events.js';
import { createMemoryEngine, type EngineDefaults, wrapError } from '../engine/memory-engine.js';
import { drainControl, trackDeclared } from '../engine/track-calls.js';
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
import { SCHEDULE_LOG_FILE, scheduleLogAt } from '../shared/schedule/schedule-log.js';
import { createWorkspaceJournal } from '../shared/workspace/workspace-journal.js';
import type { Embedder } from '../spec/embedder.js';
import type { Scope } from '../spec/memory.js';
import type { MemoryStore } from '../spec/store.js';
import { createVersionsApi, type VersionsApi } from '../versions/versions-api.js';
import { createWorkspaceApi, type WorkspaceApi } from '../workspace/workspace-api.js';
import { checkListenerArgs } from './listener-args.js';
import { type MemoryOptions, parseMemoryOptions } from './memory-options.js';

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
  /**
   * The scope the client was created with (a copy), or undefined for an unscoped client. Doors
   * that address records by scope (the LangGraph store) read it; it never widens what the client sees.
   */
  readonly scope: Scope | undefined;
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
  // Schedules' last runs are kept beside the data they run over: in a workspace's derived
  // folder, or in the home of the default store; a store given by the caller has no place
  // memoir may write to, so its schedules count from the client's creation.
  const scheduleFile =
    settings.workspace !== undefined
      ? join(settings.workspace, '.memory', SCHEDULE_LOG_FILE)
      : settings.store === undefined && settings.home !== undefined
        ? join(settings.home, SCHEDULE_LOG_FILE)
        : undefined;
  const scheduleLog = scheduleLogAt(scheduleFile, (error) =>
    engine.emit('error', { operation: 'schedule', error: wrapError(error, 'schedule') }),
  );
  // A workspace's Markdown is its source of truth: retain, update and forget write it too.
  const journal = settings.workspace === undefined ? undefined : createWorkspaceJournal(engine, settings.workspace);
  const retain = createRetainApi(engine, {
    extraction: settings.extraction,
    maxMemories: settings.maxMemories,
    retentionAppliesTo: settings.retentionAppliesTo,
    ...(journal ? { journal } : {}),
  });
  const procedures = createProceduresApi(engine, retain, settings.procedures, settings.video);
  const { readWithinCall, ...coreBlock } = createCoreBlockApi(engine, {
    root: settings.workspace,
    limit: settings.coreTokenLimit,
  });

  // Each feature declared its async methods where it defines them (`drained`); every one runs
  // through engine.track here, so close() lets calls already started finish and refuses new ones.
  const features = trackDeclared(engine, {
    ...retain,
    ...createRecallApi(engine, { ranking: settings.ranking, recallK: settings.recallK, core: { get: readWithinCall } }),
    ...createMemoriesApi(engine, journal ? { journal } : {}),
    ...createSessionsApi(engine),
    ...createCaptureApi(engine, retain, settings.capture as CaptureOptions | undefined),
    ...procedures,
    ...createStatsApi(engine, { maxSizeMb: settings.maxSizeMb }),
    ...createMaintenanceApi(engine, {
      retentionDays: settings.retentionDays,
      retentionAppliesTo: settings.retentionAppliesTo,
      schedule: settings.schedule,
      scheduleLog,
    }),
    ...createBackupApi(engine),
    ...createVersionsApi(engine, retain),
    ...createAttachmentsApi(engine),
    ...createDoctorApi(engine),
    ...createWorkspaceApi(engine, { root: settings.workspace }),
    ...createReflectApi(engine, {
      root: settings.workspace,
      schedule: settings.reflect,
      hour: settings.schedule?.hour,
      scheduleLog,
    }),
    ...coreBlock,
  });

  const client: MemoryClient = {
    store: engine.store.port,
    embedder: engine.embedder,
    scope: engine.scope ? { ...engine.scope } : undefined,
    ...features,
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
    // The drain itself: answered with a promise, never refused.
    flush: drainControl(() => engine.flush()),
    close: drainControl(() => engine.close()),
  } satisfies MemoryClient;
  return client;
}
