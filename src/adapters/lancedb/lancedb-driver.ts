import type * as LanceDb from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';
import { StoreError } from '../../core/spec/errors.js';
import { defaultEnvironmentVariable } from '../../core/utils/environment.js';

/** The two libraries the store drives, loaded together on first use. */
export interface LanceLibraries {
  lancedb: typeof LanceDb;
  arrow: typeof Arrow;
}

let loading: Promise<LanceLibraries> | undefined;

// The native module reads LANCEDB_LOG once, when it loads; set before that, it keeps
// Rust log lines off stderr unless asked for.
function quietNativeLog(level: string): void {
  defaultEnvironmentVariable('LANCEDB_LOG', level);
}

/**
 * The LanceDB release to suggest on this Node: 0.38 and later need Node 22, and 0.37.1 is the
 * last that runs on Node 20; both are tested (docs/guides/lancedb.md, "Versions").
 */
function lanceInstallHint(nodeVersion: string = process.versions.node): string {
  const major = Number(nodeVersion.split('.')[0]);
  return major >= 22
    ? 'npm install @lancedb/lancedb@~0.39.0 apache-arrow@18.1.0'
    : 'npm install @lancedb/lancedb@0.37.1 apache-arrow@18.1.0';
}

/**
 * `@lancedb/lancedb` and `apache-arrow`, imported on first use; a missing install is a
 * StoreError naming both packages and the versions that run on this Node.
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
      suggestion: `Install them with \`${lanceInstallHint()}\` (LanceDB 0.37.1 on Node 20; 0.38 and later need Node 22).`,
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
