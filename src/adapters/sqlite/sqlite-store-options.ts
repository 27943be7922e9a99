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
     * `auto` loads sqlite-vec for vector search and falls back to a scan with a warning if it
     * cannot load; `off` always scans. Default `auto`.
     */
    vectorExtension: z.enum(['auto', 'off']).default('auto'),
    /** Load sqlite-vec from this file instead of the `sqlite-vec` package (e.g. your own build). */
    vectorExtensionPath: z.string().min(1).optional(),
    /** Where warnings go (e.g. sqlite-vec failing to load). Default: stderr. */
    logger: z
      .custom<Logger>((value) => typeof (value as Logger | undefined)?.log === 'function', 'expected a Logger')
      .optional(),
  })
  .strict();

/** Options of {@link createSqliteStore}. */
export type SqliteStoreOptions = z.input<typeof sqliteStoreOptionsSchema>;
