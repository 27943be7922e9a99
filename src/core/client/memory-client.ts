import { join } from 'node:path';
import { type CaptureApi, createCaptureApi } from '../capture/capture-api.js';
import type { CaptureOptions } from '../capture/capture-options.js';
import { type CoreBlockApi, createCoreBlockApi } from '../core-block/core-block-api.js';
import type { MemoirEvents } from '../engine/events.js';
import { createMemoryEngine, type EngineDefaults, type MemoryEngine, wrapError } from '../engine/memory-engine.js';
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
import { reflectScheduleSchema } from '../schedule/reflect-schedule.js';
import { SCHEDULE_LOG_FILE, scheduleLogAt } from '../schedule/schedule-log.js';
import { createSessionsApi, type SessionsApi } from '../sessions/sessions-api.js';
import type { Embedder } from '../spec/embedder.js';
import type { Scope } from '../spec/memory.js';
import type { MemoryStore } from '../spec/store.js';
import { createVersionsApi, type VersionsApi } from '../versions/versions-api.js';
import { createWorkspaceApi, type WorkspaceApi } from '../workspace/workspace-api.js';
import { createWorkspaceJournal } from '../workspace-format/workspace-journal.js';
import { checkListenerArgs } from './listener-args.js';
import { type MemoryOptions, type ParsedMemoryOptions, parseMemoryOptions } from './memory-options.js';
import { createViewEngine, viewScope } from './scope-view.js';

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
  /**
   * A view of this client held inside `scope`: it shares the client's engine (the same store,
   * embedder, background queue, caches and drain) and reads, counts and changes only that scope,
   * exactly as a client created with `createMemory({ scope })` would. On a scoped client the
   * view's scope is the client's with the argument's fields added: it may narrow the client,
   * never widen it (a field the client fixes, given another value, is a ValidationError naming
   * it). The scope must name a userId, agentId or namespace.
   *
   * A view starts in the client's current session and keeps its own from then on
   * (`resumeSession` on a view moves only the view's). Its listeners (`on`) hear what calls
   * through the view emit; the client's listeners hear those too. The view runs no schedule
   * (maintenance, reflect): the client it came from does. Make one view per tenant (a request's
   * user) and keep it as long as that tenant's session should last; a view costs a set of
   * feature closures, no store or connection.
   *
   * `close()` on a view refuses later calls through it (and through views made from it) and
   * waits for the calls it started; the shared engine, the store and the client stay open.
   * Closing the client closes every view with it.
   *
   * @example
   * ```ts
   * const memory = createMemory();            // one client, one store, for every user
   * const sam = memory.withScope({ userId: 'sam' });
   * await sam.retain('Sam prefers window seats');
   * await sam.recall('seat preference');      // only Sam's memories
   * ```
   *
   * @param scope - Whose memories the view reads and changes.
   * @returns The view, a client of its own.
   * @throws ValidationError naming `scope` (or the field) when the scope names no one, has an
   *   unknown field, or would widen a scoped client.
   */
  withScope(scope: Scope): MemoryClient;
  /** Wait until queued background work is done. */
  flush(): Promise<void>;
  /**
   * Wait for background work, then close the store. Later calls reject. Calling twice is
   * harmless. On a view made by {@link MemoryClient.withScope}, close only the view: later calls
   * through it reject, the shared store and the client stay open.
   */
  close(): Promise<void>;
}

/** What the features of a client and of its views share: one schedule log and one workspace journal. */
interface SharedParts {
  settings: ParsedMemoryOptions;
  scheduleLog: ReturnType<typeof scheduleLogAt>;
  journal: ReturnType<typeof createWorkspaceJournal> | undefined;
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
  const shared: SharedParts = { settings, scheduleLog, journal };
  return composeClient(engine, shared, {
    schedules: true,
    flush: () => engine.flush(),
    close: () => engine.close(),
  });
}

/** The features of a client over `engine`, tracked for the drain. */
function composeFeatures(engine: MemoryEngine, shared: SharedParts, schedules: boolean) {
  const { settings, scheduleLog, journal } = shared;
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
  return trackDeclared(engine, {
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
      // The scheduled runs are the client's: a view would run them again over its own scope.
      schedule: schedules ? settings.schedule : undefined,
      scheduleLog,
    }),
    ...createBackupApi(engine),
    ...createVersionsApi(engine, retain),
    ...createAttachmentsApi(engine),
    ...createDoctorApi(engine),
    ...createWorkspaceApi(engine, { root: settings.workspace }),
    ...createReflectApi(engine, {
      root: settings.workspace,
      schedule: schedules ? settings.reflect : VIEW_REFLECT_SCHEDULE,
      hour: settings.schedule?.hour,
      scheduleLog,
    }),
    ...coreBlock,
  });
}

/** A view reflects when asked, never on a timer: the client it came from runs the schedule. */
const VIEW_REFLECT_SCHEDULE = reflectScheduleSchema.parse({ every: 'off' });

/** The client object over `engine`: its features, events, drain and views. */
function composeClient(
  engine: MemoryEngine,
  shared: SharedParts,
  own: { schedules: boolean; flush: () => Promise<void>; close: () => Promise<void> },
): MemoryClient {
  const features = composeFeatures(engine, shared, own.schedules);
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
    withScope(scope) {
      const view = createViewEngine(engine, viewScope(engine.scope, scope));
      return composeClient(view.engine, shared, {
        schedules: false,
        flush: () => engine.flush(),
        close: () => view.close(),
      });
    },
    // The drain itself: answered with a promise, never refused.
    flush: drainControl(own.flush),
    close: drainControl(own.close),
  } satisfies MemoryClient;
  return client;
}
