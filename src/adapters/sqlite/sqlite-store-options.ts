import { z } from 'zod';
import type { Logger } from '../../core/spec/runtime.js';

/** Options of {@link createSqliteStore}. */
export const sqliteStoreOptionsSchema = z
  .object({
    /** Path of the database file (created with its directory when missing), or `:memory:`. */
    path: z.string().min(1, 'expected a file path'),
    /** How long a write waits for another process's lock before failing, milliseconds. Default 10000. */
    busyTimeoutMs: z.number().int().min(0).max(600_000).default(10_000),
    /**
     * How vectors are scanned: `auto` uses the optional `usearch` package (SIMD over int8,
     * then exact float32 rescoring) and falls back, with a warning, to the same scan in
     * JavaScript when it is not installed; `javascript` always uses the JavaScript scan.
     * Default `auto`.
     */
    vectorSearch: z.enum(['auto', 'javascript']).default('auto'),
    /**
     * From how many memories the search index is also written into the file after it is
     * built, so the next process to open the store reads it back (about ten times faster
     * than rebuilding it from every row) and then only the rows changed since. It adds
     * about a fifth to the file. Default 20000.
     */
    indexSnapshotMinMemories: z.number().int().min(1).default(20_000),
    /**
     * Where a scoped lexical search takes its BM25 statistics (document count, term
     * frequencies, average length): `store` — every memory in the file, the usual choice and
     * the better ranking for small scopes (LoCoMo, one scope per conversation: 64.1 / 75.4 /
     * 83.5 / 88.1 against 63.5 / 73.7 / 82.0 / 86.1); `scope` — only the scope's memories,
     * so one tenant's scores never move with what other tenants write. Default `store`.
     */
    lexicalStatistics: z.enum(['store', 'scope']).default('store'),
    /**
     * Open the file read-only: reads work, every write is refused with a StoreError that says
     * "read-only". Default: read-only exactly when the file or its directory is not writable
     * (checked with access(2)), otherwise read-write.
     */
    readOnly: z.boolean().optional(),
    /**
     * Check the file for damage when the store opens, so a malformed file is refused before
     * anything is written into it: `auto` runs `PRAGMA quick_check` on files up to 256 MiB
     * (about half a second) and only the cheap header checks above that; `always` runs it
     * whatever the size; `off` skips it. Damage found later is still refused. Default `auto`.
     */
    checkOnOpen: z.enum(['auto', 'always', 'off']).default('auto'),
    /** Where warnings go (e.g. usearch failing to load, an empty file). Default: stderr. */
    logger: z
      .custom<Logger>((value) => typeof (value as Logger | undefined)?.log === 'function', 'expected a Logger')
      .optional(),
  })
  .strict();

/**
 * Options of {@link createSqliteStore}.
 *
 * @group Adapters
 */
export type SqliteStoreOptions = z.input<typeof sqliteStoreOptionsSchema>;
