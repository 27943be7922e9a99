import { join } from 'node:path';
import { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import type { Embedder } from '../spec/embedder.js';
import { MemoirError, ProviderError, StoreError } from '../spec/errors.js';
import type { LanguageModel } from '../spec/language-model.js';
import type { Scope } from '../spec/memory.js';
import type { Clock, IdGenerator, Logger } from '../spec/runtime.js';
import type { EmbedderIdentity, MemoryStore } from '../spec/store.js';
import { type CoreStore, coreStore } from '../store/store-facade.js';
import { LruCache } from '../utils/lru-cache.js';
import { createConsoleLogger, randomIds, systemClock } from '../utils/runtime-defaults.js';
import type { MemoirEvents } from './events.js';
import { emptyPipelineStats, type PipelineStats } from './pipeline-stats.js';
import { createProviderBounds } from './provider-bounds.js';
import { generateSessionId } from './session-id.js';

const DEFAULT_EMBED_BATCH = 256;

/** What the engine is built from: the parts createMemory was given, already validated. */
export interface EngineOptions {
  /** Where memories live; default from {@link EngineDefaults.store}. */
  store?: MemoryStore;
  /** Turns text into vectors; default from {@link EngineDefaults.embedder}. */
  embedder?: Embedder;
  /** A chat model for the features that can use one. */
  languageModel?: LanguageModel;
  /** Directory of the default store, backups and attachments. */
  home?: string;
  /** Where backups go. Default `<home>/backups`. */
  backupDirectory?: string;
  /** Where attachments go. Default `<home>/attachments`. */
  attachmentDirectory?: string;
  /** Where procedure files go. Default `<home>/procedures`. */
  procedureDirectory?: string;
  /** The client's scope. */
  scope?: Scope;
  /** The session new memories go to; `'auto'` generates one. */
  sessionId?: string;
  /** Concurrency of background work. */
  concurrency: number;
  /** Time source. Default: the wall clock. */
  clock?: Clock;
  /** Id source. Default: random, time-sortable ids. */
  ids?: IdGenerator;
  /** Diagnostics sink. Default: warnings and errors to stderr. */
  logger?: Logger;
  /** How long `close()` lets provider calls in flight run before aborting them, ms. Default 10000. */
  closeTimeoutMs?: number;
  /** Longest one embedder or model call may take, ms, even when the port ignores its signal. Default 120000. */
  providerTimeoutMs?: number;
}

/** Factories for the parts a caller did not supply. */
export interface EngineDefaults {
  /** Where backups go when `options.backupDirectory` is absent; asked only when a backup is made. */
  backupDirectory: (settings: { home: string | undefined }) => string;
  /** Where attachments go when `options.attachmentDirectory` is absent; asked only when one is stored or read. */
  attachmentDirectory: (settings: { home: string | undefined }) => string;
  /** Store used when `options.store` is absent; receives the validated `home` and logger. */
  store: (settings: { home: string | undefined; logger: Logger }) => MemoryStore;
  /** Embedder used when `options.embedder` is absent. */
  embedder: () => Embedder;
}

/** The session new memories go to, and the one `resumeSession` named (whose memories recall boosts). */
export interface SessionState {
  /** The session new memories go to; null when none. */
  current: string | null;
  /** The session named by the last `resumeSession`; null when none. */
  resumed: string | null;
}

/** What the engine measures for `stats()`. */
export interface EngineMetrics {
  /** Model calls, tokens and time per conversation-pipeline stage. */
  readonly pipeline: PipelineStats;
  /** Recalls and their total wall time. */
  readonly recall: { count: number; totalMs: number };
  /** Recent query embeddings: agents repeat their questions, and each repeat saves an embedding call. */
  readonly queryVectors: LruCache<string, Float32Array>;
}

/**
 * The context every feature of a client works in, named the way unstorage names its
 * storage context: the ports, the parsed settings, the session state, events, the
 * background queue and the helpers every feature needs. Features receive it; none
 * reaches into another's closure.
 */
export interface MemoryEngine {
  /** The store in use, as the core's view of it (built once; natives where the store has them). */
  readonly store: CoreStore;
  /** The embedder in use. */
  readonly embedder: Embedder;
  /**
   * The chat model, when one was given, bounded like {@link MemoryEngine.embed}: every
   * `generate` gets a signal that the client's close aborts, and rejects with a ProviderError
   * after `providerTimeoutMs` even when the model ignores its signal.
   */
  readonly languageModel: LanguageModel | undefined;
  /** Time source. */
  readonly clock: Clock;
  /** Id source. */
  readonly ids: IdGenerator;
  /** Diagnostics sink. */
  readonly logger: Logger;
  /** The client's scope; undefined for an unscoped client. */
  readonly scope: Scope | undefined;
  /** Current and resumed session. */
  readonly session: SessionState;
  /** Counters for `stats()`. */
  readonly metrics: EngineMetrics;
  /** The event emitter behind `on`/`once`/`off`. */
  readonly events: EventEmitter<MemoirEvents>;
  /** Emit an event; a listener that throws is logged, never passed on to the caller. */
  emit<E extends keyof MemoirEvents>(event: E, ...args: Parameters<MemoirEvents[E]>): void;
  /**
   * Queue work to run in the background. A failure is logged and emitted as `error` with
   * the input, never thrown: agent code does not see exceptions from background work.
   */
  background(operation: string, work: () => Promise<void>, input?: unknown): void;
  /**
   * Embed texts in the embedder's batch size, checking the count and length of what comes
   * back. Each batch is one bounded call: it gets a signal that `close()` aborts after
   * `closeTimeoutMs`, and rejects with a ProviderError after `providerTimeoutMs` even when
   * the embedder ignores its signal.
   */
  embed(texts: readonly string[], component: string): Promise<Float32Array[]>;
  /** Open the store on first use (with this embedder's identity); rejects once the client is closed. */
  ready(component: string): Promise<void>;
  /** Throw a StoreError when the client is closed or closing: no new work starts then. */
  assertOpen(component: string): void;
  /** True once `close()` has been called: new calls are refused while started ones finish. */
  readonly closed: boolean;
  /**
   * Run one public call so that `close()` waits for it: refused once the client is
   * closing, otherwise counted until it settles.
   */
  track<T>(component: string, call: () => Promise<T>): Promise<T>;
  /** Reopen the store after its embeddings were reset, with this embedder's identity. */
  reopen(prepare: () => Promise<void>): Promise<void>;
  /** The current time as stored ISO 8601 text. */
  nowIso(): string;
  /** The embedder's id and dimensions, as a store records them. */
  identity(): EmbedderIdentity;
  /** Directory of backups (resolved on first use). */
  backupDirectory(): string;
  /** Directory of attachments (resolved on first use). */
  attachmentDirectory(): string;
  /**
   * Directory of procedure files: `procedureDirectory`, else `<home>/procedures`; undefined
   * when neither was given (a client over a given store writes no files unless told where).
   */
  procedureDirectory(): string | undefined;
  /** `model` bounded like {@link MemoryEngine.languageModel}: aborted by close, rejected after `providerTimeoutMs`. */
  boundModel(model: LanguageModel): LanguageModel;
  /** Run `hook` when the client closes, before the queue drains (e.g. to stop timers). */
  onClose(hook: () => void): void;
  /**
   * Run `hook` once the store has first opened (not after a reindex reopens it), e.g. to
   * queue background work over what an earlier process stored. A hook that throws is logged.
   */
  onOpen(hook: () => void): void;
  /** Wait until queued background work is done. */
  flush(): Promise<void>;
  /**
   * Stop timers, let started calls and queued work finish, and close the store. Provider
   * calls still running `closeTimeoutMs` after close() began are aborted (and new ones are
   * refused), so a hung provider cannot hold it. Calling twice is harmless.
   */
  close(): Promise<void>;
}

function closedError(component: string): StoreError {
  return new StoreError('the memory client is closed', {
    component,
    suggestion: 'Create a new client with createMemory().',
  });
}

/** Wrap anything thrown as a MemoirError, keeping MemoirErrors as they are. */
export function wrapError(error: unknown, component: string): MemoirError {
  if (MemoirError.isInstance(error)) return error;
  return new StoreError(error instanceof Error ? error.message : String(error), { component, cause: error });
}

/** Build the engine from parsed options, taking the parts not given from `defaults`. */
export function createMemoryEngine(settings: EngineOptions, defaults: EngineDefaults): MemoryEngine {
  const logger = settings.logger ?? createConsoleLogger();
  const store = coreStore(settings.store ?? defaults.store({ home: settings.home, logger }));
  const embedder = settings.embedder ?? defaults.embedder();
  const clock = settings.clock ?? systemClock;
  const events = new EventEmitter<MemoirEvents>();
  const queue = new PQueue({ concurrency: settings.concurrency });
  const closeHooks: Array<() => void> = [];
  const openHooks: Array<() => void> = [];
  const inFlight = new Set<Promise<unknown>>();
  let opened: Promise<void> | undefined;
  let closing = false;
  let closingDone: Promise<void> = Promise.resolve();
  let closed = false;
  let backupDirectory: string | undefined;
  let attachmentDirectory: string | undefined;

  const identity = (): EmbedderIdentity => ({ id: embedder.id, dimensions: embedder.dimensions });
  // Every embedder and model call is bounded by providerTimeoutMs and aborted by close().
  const bounds = createProviderBounds(settings);
  const languageModel = settings.languageModel && bounds.model(settings.languageModel);
  const runOpenHooks = () => {
    for (const hook of openHooks) {
      try {
        hook();
      } catch (error) {
        // An open hook only queues follow-up work; its failure must not fail the call that opened the store.
        logger.log('error', 'an open hook threw', { error: String(error) });
      }
    }
  };

  const engine: MemoryEngine = {
    store,
    embedder,
    languageModel,
    clock,
    ids: settings.ids ?? randomIds,
    logger,
    scope: settings.scope,
    session: {
      current: settings.sessionId === 'auto' ? generateSessionId(clock.now()) : (settings.sessionId ?? null),
      resumed: null,
    },
    metrics: {
      pipeline: emptyPipelineStats(),
      recall: { count: 0, totalMs: 0 },
      queryVectors: new LruCache<string, Float32Array>(256),
    },
    events,

    emit(event, ...args) {
      try {
        (events.emit as (name: typeof event, ...rest: typeof args) => boolean)(event, ...args);
      } catch (error) {
        // A listener's bug must not turn a committed write into a rejected call.
        logger.log('error', `listener for ${event} threw`, { error: String(error) });
      }
    },

    background(operation, work, input) {
      void queue.add(async () => {
        try {
          await work();
        } catch (error) {
          const wrapped = wrapError(error, operation);
          logger.log('warn', `background ${operation} failed: ${wrapped.message}`);
          engine.emit('error', { operation, error: wrapped, ...(input === undefined ? {} : { input }) });
        }
      });
    },

    async embed(texts, component) {
      const batchSize = Math.max(1, embedder.maxBatchSize ?? DEFAULT_EMBED_BATCH);
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        let result: Float32Array[];
        try {
          result = await bounds.run(`embedder ${embedder.id}`, component, undefined, (signal) =>
            embedder.embed(batch, { signal }),
          );
        } catch (error) {
          if (MemoirError.isInstance(error)) throw error;
          throw new ProviderError(`embedder ${embedder.id} failed`, { component, cause: error });
        }
        if (result.length !== batch.length || result.some((vector) => vector.length !== embedder.dimensions)) {
          throw new ProviderError(
            `embedder ${embedder.id} returned ${result.length} vectors for ${batch.length} texts, or a vector whose length is not ${embedder.dimensions}`,
            { component, suggestion: 'Check the embedder implementation and its `dimensions`.' },
          );
        }
        // NaN or Infinity would poison every similarity it touches: refuse the batch like a wrong length.
        if (result.some((vector) => !vector.every(Number.isFinite))) {
          throw new ProviderError(`embedder ${embedder.id} returned a vector with a NaN or infinite value`, {
            component,
            suggestion: 'Check the embedding model or service; memories stay stored and are embedded later.',
          });
        }
        vectors.push(...result);
      }
      return vectors;
    },

    assertOpen(component) {
      if (closing) throw closedError(component);
    },

    async ready(component) {
      // Calls that started before close() may still open the store; nothing new may.
      if (closed) engine.assertOpen(component);
      opened ??= store.open(identity()).then(runOpenHooks);
      try {
        await opened;
      } catch (error) {
        opened = undefined;
        throw wrapError(error, component);
      }
    },

    get closed() {
      return closing;
    },

    track(component, call) {
      // An async call refuses by rejecting, never by throwing where it is called.
      if (closing) return Promise.reject(closedError(component));
      const running = call();
      const settled = running.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(settled);
      void settled.then(() => inFlight.delete(settled));
      return running;
    },

    async reopen(prepare) {
      opened = (async () => {
        await prepare();
        await store.open(identity());
      })();
    },

    nowIso: () => new Date(clock.now()).toISOString(),
    identity,
    backupDirectory() {
      backupDirectory ??= settings.backupDirectory ?? defaults.backupDirectory({ home: settings.home });
      return backupDirectory;
    },
    attachmentDirectory() {
      attachmentDirectory ??= settings.attachmentDirectory ?? defaults.attachmentDirectory({ home: settings.home });
      return attachmentDirectory;
    },
    procedureDirectory: () =>
      settings.procedureDirectory ?? (settings.home === undefined ? undefined : join(settings.home, 'procedures')),
    boundModel: (model) => bounds.model(model),
    onClose(hook) {
      closeHooks.push(hook);
    },
    onOpen(hook) {
      openHooks.push(hook);
    },
    flush: () => queue.onIdle(),
    async close() {
      if (closing) return closingDone;
      closing = true;
      closingDone = (async () => {
        for (const hook of closeHooks) hook();
        // After the grace period, provider calls still running are aborted and new ones refused,
        // so a hung provider cannot hold close(); the calls then keep what they hold and settle.
        const grace = setTimeout(() => bounds.stop(), bounds.closeTimeoutMs);
        try {
          // Calls already started finish (their background work too); new ones were refused above.
          while (inFlight.size > 0) await Promise.all([...inFlight]);
          await queue.onIdle();
        } finally {
          clearTimeout(grace);
        }
        closed = true;
        await store.close();
        events.removeAllListeners();
      })();
      return closingDone;
    },
  };
  return engine;
}
