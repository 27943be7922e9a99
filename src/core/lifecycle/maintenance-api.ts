import { z } from 'zod';
import { autoBackup } from '../backup/auto-backup.js';
import { pendingEmbeddings } from '../embeddings/pending-embeddings.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { wrapError } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import type { RetentionOrigin } from '../retention/protection.js';
import { CATCH_UP_DELAY_MS, missedDaily, scheduleDaily } from '../schedule/schedule.js';
import { type ScheduleLog, scheduleName } from '../schedule/schedule-log.js';
import { isEmptyScope } from '../search/scope-boundary.js';
import { ValidationError } from '../spec/errors.js';
import { embeddingText } from '../text/memory-text.js';
import { memoryPages } from '../utils/pages.js';
import { parseInput } from '../utils/validate.js';
import { type CleanupResult, cleanup } from './cleanup.js';
import { type ConsolidateResult, consolidate } from './consolidate.js';

const reindexOptionsSchema = z
  .object({
    /** Called after each batch with the memories done so far and the total. */
    onProgress: z.custom<(done: number, total: number) => void>((value) => typeof value === 'function').optional(),
    /** Memories embedded and written per transaction. Default 500. */
    batchSize: z.number().int().min(1).max(100_000).default(500),
    /**
     * Embed only the memories stored without an embedding (kept while the embedder was
     * down), leaving the others as they are; a scoped client may do this for its scope.
     * Default false: re-embed everything.
     */
    onlyMissing: z.boolean().default(false),
  })
  .strict();

const consolidateOptionsSchema = z
  .object({
    /** Cosine similarity at or above which two memories are duplicates, in (0, 1]. Default 0.95. */
    threshold: z.number().gt(0).max(1).optional(),
    /** Only memories of this category, e.g. `screen`. Default: all. */
    category: z.string().min(1).optional(),
    /** Find the clusters and report them; delete nothing. Default false. */
    dryRun: z.boolean().optional(),
  })
  .strict();

const cleanupOptionsSchema = z
  .object({
    /** This run's retention instead of the client's `retentionDays`. */
    retentionDays: z.number().positive().max(1_000_000).optional(),
    /** Report what would go; delete nothing, back up nothing. Default false. */
    dryRun: z.boolean().optional(),
  })
  .strict();

/**
 * Options of `cleanup`.
 *
 * @group Backups and maintenance
 */
export type CleanupRunOptions = z.input<typeof cleanupOptionsSchema>;

/**
 * Options of `consolidate`.
 *
 * @group Backups and maintenance
 */
export type ConsolidateRunOptions = z.input<typeof consolidateOptionsSchema>;

/**
 * Options of `reindex`.
 *
 * @group Backups and maintenance
 */
export type ReindexOptions = z.input<typeof reindexOptionsSchema>;

/**
 * What `reindex` resolves to.
 *
 * @group Backups and maintenance
 */
export interface ReindexResult {
  /** Memories embedded (again, or for the first time with `onlyMissing`). */
  reembedded: number;
}

/**
 * Keeping a store healthy: re-embedding, age-based cleanup, merging near-duplicates, a daily run.
 *
 * @group Client
 */
export interface MaintenanceApi {
  /**
   * Re-embed every memory with this client's embedder, replacing vectors made by another
   * one (a store refuses to open with a different embedder until this runs). Vectors belong
   * to the store, so only an unscoped client may reindex; a scoped one gets a ValidationError.
   * Memories stored while the embedder was down are embedded too; `onlyMissing: true` embeds
   * just those (of the client's scope). Rejects when the embedder fails; what is left is
   * retried in the background.
   */
  reindex(options?: ReindexOptions): Promise<ReindexResult>;
  /**
   * Delete the memories of an origin in `retentionAppliesTo` (by default only auto-captured
   * tool calls) that memoir has neither learned nor used for more than `retentionDays`;
   * bookmarked and `manual_save` ones are always kept, and a memory's `occurredAt` plays no
   * part. When something will be deleted, a backup (`auto-before-cleanup`, of the client's
   * scope) is written and verified first; if it fails, nothing is deleted. Reports the count,
   * the ids and the bytes freed. `dryRun: true` reports what would go and changes nothing;
   * `retentionDays` replaces the client's for this run.
   */
  cleanup(options?: CleanupRunOptions): Promise<CleanupResult>;
  /**
   * Keep one representative of each cluster of near-identical memories (cosine >= 0.95 by
   * default), delete the rest, and record the consolidation on the one kept; bookmarked and
   * `manual_save` memories are never deleted. `dryRun: true` reports the clusters and the ids
   * that would go, and changes nothing.
   */
  consolidate(options?: ConsolidateRunOptions): Promise<ConsolidateResult>;
}

/** The daily maintenance runs: cleanup at `hour:minute`, consolidate after it (`true`) or at its own time. */
export interface MaintenanceSchedule {
  /** Local hour of the daily cleanup, 0–23. */
  hour: number;
  /** Minute of that hour, 0–59. Default 0. */
  minute?: number;
  /** Run cleanup at that time. Default true. */
  cleanup?: boolean;
  /** `true`: consolidate right after each cleanup; a time: consolidate daily then; `false`: never. */
  consolidate: boolean | { hour: number; minute?: number };
}

/** What maintenance needs from createMemory's options. */
export interface MaintenanceSettings {
  /** Days `cleanup()` keeps memories after memoir last learned or used them. */
  retentionDays: number;
  /** Which memories cleanup may delete, by origin. */
  retentionAppliesTo: readonly RetentionOrigin[];
  /** A daily run of cleanup (and consolidate, after it or at its own time) at a local time, when asked for. */
  schedule: MaintenanceSchedule | undefined;
  /**
   * Where the daily runs' last runs are kept (a workspace's `.memory/schedule.json`, the default
   * store's `<home>/schedule.json`): a process that was not up at the time catches up a minute
   * after it starts. Absent (a store the caller gave): the runs come at their time only.
   */
  scheduleLog?: ScheduleLog;
}

/** The maintenance feature over an engine; starts the daily schedule when one is set, and stops it on close. */
export function createMaintenanceApi(engine: MemoryEngine, settings: MaintenanceSettings): MaintenanceApi {
  const { store } = engine;
  const scoped = () => (engine.scope ? { scope: engine.scope } : {});

  async function reindex(optionsInput?: unknown): Promise<ReindexResult> {
    const { onProgress, batchSize, onlyMissing } = parseInput(
      reindexOptionsSchema,
      optionsInput ?? {},
      'reindex',
      'options',
    );
    engine.assertOpen('reindex');
    if (onlyMissing) {
      await engine.ready('reindex');
      const { embedded } = await pendingEmbeddings(engine).complete({
        batchSize,
        ...(onProgress ? { onProgress } : {}),
      });
      return { reembedded: embedded };
    }
    if (!isEmptyScope(engine.scope)) {
      // Vectors are the store's, not a tenant's: switching embedders re-embeds every scope.
      throw new ValidationError(
        [{ field: 'scope', message: 'reindex re-embeds the memories of every scope, and this run is limited to one' }],
        {
          component: 'reindex',
          suggestion: 'Create the client without `scope` (an admin client) to reindex.',
          hint: { code: 'unscoped' },
        },
      );
    }
    await engine.reopen(() => store.resetEmbeddings(engine.identity()));
    await engine.ready('reindex');
    const total = await store.countMemories();
    let done = 0;
    try {
      for await (const page of memoryPages(store, undefined, batchSize)) {
        const vectors = await engine.embed(page.map(embeddingText), 'reindex');
        await store.transaction(() =>
          store.upsertMemories(page.map((memory, index) => ({ memory, embedding: vectors[index] ?? null }))),
        );
        done += page.length;
        onProgress?.(done, total);
      }
    } catch (error) {
      // Embeddings were reset: what this run did not reach waits for the background pass.
      pendingEmbeddings(engine).arm();
      throw error;
    }
    return { reembedded: done };
  }

  async function runCleanup(optionsInput?: unknown): Promise<CleanupResult> {
    const options = parseInput(cleanupOptionsSchema, optionsInput ?? {}, 'cleanup', 'options');
    await engine.ready('cleanup');
    const result = await cleanup(store, {
      retentionDays: options.retentionDays ?? settings.retentionDays,
      ...(options.dryRun ? { dryRun: true } : {}),
      appliesTo: settings.retentionAppliesTo,
      now: engine.clock.now(),
      ...scoped(),
      backupFirst: () => autoBackup(engine, 'cleanup'),
      logger: engine.logger,
    });
    forgotten(result);
    return result;
  }

  // Deleted like forget deletes: a workspace's Markdown loses the lines too, or a rebuild of its
  // index would bring back what cleanup or consolidate removed.
  function forgotten(result: { dryRun?: boolean; ids?: readonly string[] }): void {
    if (!result.dryRun && result.ids && result.ids.length > 0)
      engine.emit('memory:forgotten', { ids: [...result.ids] });
  }

  async function runConsolidate(optionsInput?: unknown): Promise<ConsolidateResult> {
    const options = parseInput(consolidateOptionsSchema, optionsInput ?? {}, 'consolidate', 'options');
    await engine.ready('consolidate');
    const result = await consolidate(store, { ...options, ...scoped(), now: engine.clock.now() });
    forgotten(result);
    return result;
  }

  const { schedule } = settings;
  if (schedule) {
    // Background work never throws into agent code: a failed run is an error event.
    const onError = (error: unknown) =>
      engine.emit('error', { operation: 'schedule', error: wrapError(error, 'schedule') });
    const { consolidate: consolidateAt } = schedule;
    const log = settings.scheduleLog;
    // A scoped client maintains its own scope: its runs are its own.
    const cleanupName = scheduleName('cleanup', engine.scope);
    const consolidateName = scheduleName('consolidate', engine.scope);
    // A run missed while the process was down comes a minute after start, when runs are kept.
    const catchUp = (name: string, hour: number, minute: number) => ({
      catchUp: log?.file !== undefined && missedDaily(hour, log.lastRun(name), engine.clock.now(), minute),
      catchUpDelayMs: CATCH_UP_DELAY_MS,
    });
    const job = scheduleDaily(
      async () => {
        if (schedule.cleanup !== false) await runCleanup();
        if (consolidateAt === true) await runConsolidate();
        await log?.record(cleanupName, engine.clock.now());
      },
      {
        hour: schedule.hour,
        minute: schedule.minute ?? 0,
        clock: engine.clock,
        onError,
        ...catchUp(cleanupName, schedule.hour, schedule.minute ?? 0),
      },
    );
    engine.onClose(() => job.stop());
    if (typeof consolidateAt === 'object') {
      const own = scheduleDaily(
        async () => {
          await runConsolidate();
          await log?.record(consolidateName, engine.clock.now());
        },
        {
          hour: consolidateAt.hour,
          minute: consolidateAt.minute ?? 0,
          clock: engine.clock,
          onError,
          ...catchUp(consolidateName, consolidateAt.hour, consolidateAt.minute ?? 0),
        },
      );
      engine.onClose(() => own.stop());
    }
  }

  return drained<AsyncMembers<MaintenanceApi>>({
    reindex: (options) => reindex(options),
    cleanup: (options) => runCleanup(options),
    consolidate: (options) => runConsolidate(options),
  });
}
