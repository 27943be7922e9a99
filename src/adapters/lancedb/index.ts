/**
 * The LanceDB store: memories and records in LanceDB tables, on a local directory, object
 * storage (`s3://`, `gs://`, `az://`) or LanceDB Cloud. Searches are answered by memoir's
 * in-process index, snapshotted beside the table (`search: 'memoir'`, the default), or by
 * LanceDB's full-text index and a vector index built past a row threshold (`search: 'native'`);
 * scalar indexes on the scope columns.
 * `@lancedb/lancedb` and `apache-arrow` are optional peer dependencies, loaded when the
 * store first opens, never at import.
 *
 * @module memoir/lancedb
 */

import { parseOptions } from '../../core/utils/parse-options.js';
import { createConsoleLogger } from '../../core/utils/runtime-defaults.js';
import { LanceStore } from './lancedb-store.js';
import { defaultLanceUri, type LanceStoreOptions, lanceStoreOptionsSchema } from './lancedb-store-options.js';

export { LANCE_SCHEMA_VERSION } from './lancedb-schema.js';
export type { LanceSearchIndexStats } from './lancedb-search-index.js';
export type { LanceStore } from './lancedb-store.js';
export type { LanceIndexSettings, LanceStoreOptions } from './lancedb-store-options.js';

/**
 * Open (lazily, on first use) a LanceDB-backed MemoryStore.
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { createLanceStore } from 'memoir/lancedb';
 * const memory = createMemory({ store: createLanceStore({ uri: './agent-lancedb' }) });
 * // On S3 (or any S3-compatible server):
 * createLanceStore({ uri: 's3://bucket/memoir', storageOptions: { aws_region: 'eu-west-1' } });
 * ```
 * @throws ConfigError when `options` is invalid.
 * @group Adapters
 */
export function createLanceStore(options: LanceStoreOptions = {}): LanceStore {
  const parsed = parseOptions(
    lanceStoreOptionsSchema,
    options,
    'lancedb-store',
    'Pass { uri?: "/path/to/dir" | "s3://bucket/path", tableName?, storageOptions?, index? }.',
  );
  return new LanceStore({
    ...parsed,
    uri: parsed.uri ?? defaultLanceUri(),
    storageOptions: parsed.storageOptions,
    apiKey: parsed.apiKey,
    region: parsed.region,
    indexCacheBytes: parsed.indexCacheBytes,
    logger: parsed.logger ?? createConsoleLogger(),
  });
}
