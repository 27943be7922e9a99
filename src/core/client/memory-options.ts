import { z } from 'zod';
import type { CaptureOptions } from '../capture/index.js';
import { procedureOptionsSchema } from '../procedures/procedure-options.js';
import { videoOptionsSchema } from '../procedures/recording-options.js';
import { rankingOptionsSchema } from '../recall/recall-options.js';
import { extractionOptionsSchema } from '../retain/conversation/extraction-options.js';
import { DEFAULT_RETENTION_ORIGINS, RETENTION_ORIGINS } from '../retention/protection.js';
import { reflectScheduleSchema } from '../schedule/reflect-schedule.js';
import type { Embedder } from '../spec/embedder.js';
import type { LanguageModel } from '../spec/language-model.js';
import { tenantScopeSchema } from '../spec/memory.js';
import type { Clock, IdGenerator, Logger } from '../spec/runtime.js';
import type { MemoryStore } from '../spec/store.js';
import { parseOptions } from '../utils/parse-options.js';

function port<T>(what: string, required: readonly string[], version = 'v1') {
  return z.custom<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      (value as { specificationVersion?: unknown }).specificationVersion === version &&
      required.every((member) => member in value),
    { message: `expected a ${what} implementing specificationVersion '${version}' (members: ${required.join(', ')})` },
  );
}

const withMethod = <T>(what: string, method: string) =>
  z.custom<T>(
    (value) =>
      typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function',
    {
      message: `expected ${what} with a ${method}() method`,
    },
  );

/**
 * The zod schema of {@link MemoryOptions}, the one place each option is declared and
 * documented: the type is derived from it, and `memoir`'s settings registry
 * (`src/config/`) reads its defaults from it.
 */
export const memoryOptionsSchema = z
  .object({
    /** Where memories live. Default: the SQLite store at `<home>/memoir.sqlite`. */
    store: port<MemoryStore>(
      'MemoryStore',
      ['open', 'close', 'get', 'put', 'delete', 'list', 'getEmbeddings'],
      'v2',
    ).optional(),
    /** Turns text into vectors. Default: the local hashing embedder (offline, no download). */
    embedder: port<Embedder>('Embedder', ['id', 'dimensions', 'embed']).optional(),
    /**
     * Directory of the default SQLite store (`<home>/memoir.sqlite`), used only when `store`
     * is absent. Default: `loadConfig().config.home` (`$MEMOIR_HOME`, else `~/.memoir`).
     */
    home: z.string().min(1).optional(),
    /** Where `backup()` and the automatic backups write. Default `<home>/backups`. */
    backupDirectory: z.string().min(1).optional(),
    /** Where `attach()` copies files. Default `<home>/attachments`. */
    attachmentDirectory: z.string().min(1).optional(),
    /**
     * The tenant this client is held in: every retain, recall and change stays inside it. It
     * must name a userId, agentId or namespace (`{ userId: undefined }` is refused, never read
     * as every user); omit it for the admin client that sees every scope.
     */
    scope: tenantScopeSchema.optional(),
    /**
     * Session applied to every retain that doesn't name its own. `'auto'` generates one when
     * the client is created (`session_YYYYMMDD_HHMMSS_xxxx`), shared by everything it stores.
     */
    sessionId: z.string().min(1).max(256).optional(),
    /** Default number of results of `recall`, 1 to 1000. Default 10. */
    recallK: z.number().int().min(1).max(1000).default(10),
    /** Ranking tuning. */
    ranking: rankingOptionsSchema.default(rankingOptionsSchema.parse({})),
    /**
     * A chat model (e.g. from `memoir/openai`) for the conversation pipeline: with one,
     * `retain({ messages })` extracts, deduplicates and merges memories; without one, it
     * keeps the conversation as an episode plus the facts simple rules can find.
     */
    languageModel: port<LanguageModel>('LanguageModel', ['id', 'generate']).optional(),
    /** Conversation pipeline settings. */
    extraction: extractionOptionsSchema.default(extractionOptionsSchema.parse({})),
    /** Storage quota `stats()` reports usage against, megabytes. Default 500. */
    maxSizeMb: z.number().positive().default(500),
    /**
     * Days `cleanup()` keeps a memory after memoir last learned or used it (the latest of its
     * `createdAt`, `updatedAt` and `lastAccessedAt`). Not counted from `occurredAt`: that says
     * when something happened in the world, and a fact about 1990 retained today is new
     * knowledge. Only memories of an origin in `retentionAppliesTo` expire. Default 30.
     */
    retentionDays: z.number().positive().max(1_000_000).default(30),
    /**
     * Which memories `cleanup()`, the daily `schedule` and eviction at `maxMemories` may delete,
     * by where they came from: `'captured'` (tool calls recorded by capture), `'episodes'` (raw
     * conversation turns and tasks kept verbatim), `'extracted'` (memories a model extracted
     * from a conversation), `'retained'` (everything a caller stored directly: facts, opinions,
     * notes, workflows, imports). Default `['captured']` (seed 001: retention expires only
     * auto-captured, non-important memories); `[]` deletes nothing. Bookmarked and
     * `manual_save` memories are never deleted, whatever this says.
     */
    retentionAppliesTo: z
      .array(z.enum(RETENTION_ORIGINS))
      .max(RETENTION_ORIGINS.length)
      .default([...DEFAULT_RETENTION_ORIGINS]),
    /**
     * Most memories to keep: storing beyond it evicts the lowest-ranked (importance, recency,
     * use) of those `retentionAppliesTo` lets expire. When none may, the new memory is stored
     * anyway and the collection goes over the limit: nothing someone chose to keep is deleted.
     * Default: no limit.
     */
    maxMemories: z.number().int().positive().optional(),
    /**
     * A daily maintenance run at a local hour: `cleanup()` (same rules, same backup first), and
     * `consolidate()` too when asked. Timers never keep the process alive.
     */
    schedule: z
      .object({
        /** Local hour of the daily run, 0–23. */
        hour: z.number().int().min(0).max(23),
        /** Minute of that hour, 0–59. Default 0. */
        minute: z.number().int().min(0).max(59).default(0),
        /** Run `cleanup()` at that time. Default true; false leaves the time to `consolidate` alone. */
        cleanup: z.boolean().default(true),
        /** Also run `consolidate()`: `true` right after cleanup, or daily at its own `{ hour, minute }`. Default false. */
        consolidate: z
          .union([
            z.boolean(),
            z
              .object({
                /** Local hour of the daily consolidation, 0–23. */
                hour: z.number().int().min(0).max(23),
                /** Minute of that hour, 0–59. Default 0. */
                minute: z.number().int().min(0).max(59).default(0),
              })
              .strict(),
          ])
          .default(false),
      })
      .strict()
      .optional(),
    /**
     * Root of a Markdown workspace (`memory.md`, `memory/YYYY-MM-DD.md`, `bank/`), the source of
     * truth `memory.workspace.index()` derives the store's contents from, and where `retain`,
     * `update` and `forget` write (the day's `memory/YYYY-MM-DD.md`). Without a `store`, the
     * index is `<workspace>/.memory/index.sqlite`, as with `createWorkspace`.
     */
    workspace: z.string().min(1).optional(),
    /**
     * With a `workspace`: reflect on a schedule — `every: 'daily'` (default; at `schedule.hour`
     * when a daily schedule is set, else every 24 hours from the last run), a number of
     * hours, or `'off'` — each run bounded by `maxTokens` (default 50000) model tokens and
     * `deadlineMs` (default 600000) of wall time. The last run is kept in
     * `<workspace>/.memory/schedule.json`: a client started when a run is due (none kept, or
     * the interval or the hour passed) reflects `catchUpDelayMs` (default 60000) after it
     * starts. A run that reaches a bound stops between steps, emits `reflect:stopped`, and
     * leaves the rest to the next run. Timers never keep the process alive; close() stops them.
     */
    reflect: reflectScheduleSchema.default(reflectScheduleSchema.parse({})),
    /** Most tokens the core block (`memory.core`, `memory.md` in a workspace) may hold, counted as recall budgets are. Default 2000. */
    coreTokenLimit: z.number().int().positive().max(1_000_000).optional(),
    /**
     * Procedures learned from finished tasks (`memory.procedures`): the reflection model, the
     * thresholds, and where the Markdown files go (default `<home>/procedures`).
     */
    procedures: procedureOptionsSchema.default(procedureOptionsSchema.parse({})),
    /**
     * Procedures from screen recordings (`memory.procedures.fromRecording`): the video provider
     * (`memoir/memories-ai`), the frame extractor (`memoir/recorder`) and, optionally, a vision
     * model other than `languageModel`.
     */
    video: videoOptionsSchema.optional(),
    /**
     * Auto-capture of tool calls (`capture()`): opt-in with `{ enabled: true }`. Checked in full
     * by the capture module when the client is created.
     */
    capture: z
      .custom<CaptureOptions>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
        message: 'expected an object of capture options, e.g. { enabled: true }',
      })
      .optional(),
    /** Concurrency of background work (access bookkeeping, `retainAsync`), 1 to 64. Default 1. */
    concurrency: z.number().int().min(1).max(64).default(1),
    /** Time source (inject a fixed clock in tests). */
    clock: withMethod<Clock>('a Clock', 'now').optional(),
    /** Id source (inject a counter in tests). */
    ids: withMethod<IdGenerator>('an IdGenerator', 'next').optional(),
    /** Diagnostics sink. Default: warnings and errors to stderr. */
    logger: withMethod<Logger>('a Logger', 'log').optional(),
    /**
     * How long `close()` lets embedder and model calls already running go on, in milliseconds.
     * Calls still running then are aborted (the call that made them keeps its raw input) and new
     * ones are refused, so `close()` resolves within about this bound plus the local writes of
     * the calls it waits for, even when a provider hangs. Default 10000.
     */
    closeTimeoutMs: z.number().int().min(0).max(3_600_000).default(10_000),
    /**
     * Longest one embedder call (one batch) or one model call may take, in milliseconds. A
     * backstop for providers that ignore their abort signal or never answer: the call then
     * rejects with a retryable ProviderError. Set it above the provider's own timeout (the
     * OpenAI adapters' `timeoutMs`, 30 s and 60 s by default), whose errors say more. Default 120000.
     */
    providerTimeoutMs: z.number().int().min(1).max(86_400_000).default(120_000),
  })
  .strict();

/**
 * Options of {@link createMemory}. All optional: `createMemory()` runs offline with defaults.
 * Derived from its zod schema, where each option is documented once.
 *
 * @group Client
 */
export type MemoryOptions = z.input<typeof memoryOptionsSchema>;

/** createMemory's options with defaults filled. */
export type ParsedMemoryOptions = z.output<typeof memoryOptionsSchema>;

/** Parse createMemory's options once, turning problems into a ConfigError naming the option. */
export function parseMemoryOptions(options: unknown): ParsedMemoryOptions {
  return parseOptions(
    memoryOptionsSchema,
    options,
    'createMemory',
    'See the MemoryOptions reference for accepted values.',
  );
}
