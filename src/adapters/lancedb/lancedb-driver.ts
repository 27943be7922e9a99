import type * as LanceDb from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';
import { StoreError } from '../../core/spec/errors.js';

/** The two libraries the store drives, loaded together on first use. */
export interface LanceLibraries {
  lancedb: typeof LanceDb;
  arrow: typeof Arrow;
}

let loading: Promise<LanceLibraries> | undefined;

// The native module reads LANCEDB_LOG once, when it loads; set before that, it keeps
// Rust log lines off stderr unless asked for.
function quietNativeLog(level: string): void {
  if (process.env.LANCEDB_LOG === undefined) process.env.LANCEDB_LOG = level;
}

/**
 * `@lancedb/lancedb` and `apache-arrow`, imported on first use; a missing install is a
 * StoreError naming both packages and the versions that run on Node 20.
 */
export function loadLanceLibraries(nativeLogLevel: string): Promise<LanceLibraries> {
  loading ??= (async () => {
    quietNativeLog(nativeLogLevel);
    const [lancedb, arrow] = await Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]);
    // Through ESM interop a CommonJS package may arrive under `default`.
    const unwrap = <T>(module: T): T => ((module as { default?: T }).default ?? module) as T;
    return { lancedb: unwrap(lancedb), arrow: unwrap(arrow) };
  })().catch((error: unknown) => {
    loading = undefined;
    throw new StoreError('cannot load @lancedb/lancedb and apache-arrow', {
      component: 'lancedb-store',
      cause: error,
      suggestion:
        'Install them with `npm install @lancedb/lancedb@0.37.1 apache-arrow@18.1.0` (LanceDB 0.38 and later need Node 22).',
    });
  });
  return loading;
}

/** A table, as this adapter uses it. */
export type LanceTable = LanceDb.Table;
/** A connection, as this adapter uses it. */
export type LanceConnection = LanceDb.Connection;
/** An Arrow schema from any copy of apache-arrow (LanceDB sanitises foreign ones). */
export type LanceSchema = Arrow.Schema;
