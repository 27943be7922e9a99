import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../core/spec/runtime.js';

const tableName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, 'expected a letter, then letters, digits or _ (at most 63 characters)');

/** How the store indexes vectors, and when it folds new rows into its indexes. */
export const lanceIndexOptionsSchema = z
  .object({
    /**
     * The vector index built once the table holds `vectorIndexMinRows` embedded memories:
     * `ivf-hnsw-sq` (an HNSW graph per IVF partition over 8-bit scalar-quantised vectors),
     * `ivf-flat` (partitions of full vectors: quickest to build, twice the vector bytes),
     * `ivf-pq` (product quantisation: smallest, least exact), `ivf-hnsw-pq` (HNSW graphs over
     * product-quantised vectors), or `none` (always exact search).
     * Default `ivf-flat`, chosen by measurement on 2 cores: recall@50 1.00 under a scope
     * prefilter like HNSW's, built in 13 s for 100k rows where HNSW took 167–314 s, and IVF_PQ
     * reached 0.76 (see the README's LanceDB section).
     */
    vector: z.enum(['ivf-hnsw-sq', 'ivf-hnsw-pq', 'ivf-flat', 'ivf-pq', 'none']).default('ivf-flat'),
    /** Embedded memories before the vector index is built; below it every search is exact. Default 100000. */
    vectorIndexMinRows: z.number().int().min(256).default(100_000),
    /**
     * A filtered vector search that can match at most this many memories (counted with the
     * scalar indexes) is answered exactly rather than through the index. Default 0 (never, once
     * there is an index): LanceDB's exact search under a filter reads the whole vector column,
     * so at 100,000 rows it took 78–123 ms for scopes of 500 to 5,000 memories where the
     * IVF_FLAT index, probing partitions until enough rows pass, took 16–42 ms with recall@50
     * 1.00. A search the index leaves short is still repeated exactly.
     */
    exactSearchMaxRows: z.number().int().min(0).default(0),
    /** HNSW search breadth (`ef`) for `ivf-hnsw-sq`. Default 200. */
    ef: z.number().int().min(1).max(10_000).default(200),
    /** IVF partitions probed at least; more are probed until enough rows pass the filter. Default 20. */
    nprobes: z.number().int().min(1).max(10_000).default(20),
    /**
     * Re-rank `limit × refineFactor` index candidates on their full vectors, so the scores
     * returned are exact cosines. Default 4.
     */
    refineFactor: z.number().int().min(1).max(100).default(4),
    /**
     * Rows written since the last optimisation that start one in the background
     * (compaction, and folding new rows into the full-text and vector indexes). Default 20000.
     */
    optimizeAfterRows: z.number().int().min(1).default(20_000),
    /** Commits (writes) since the last optimisation that start one; each leaves a small fragment to compact. Default 16. */
    optimizeAfterCommits: z.number().int().min(1).default(16),
    /** Run index builds and optimisation in the background after writes. Default true. */
    background: z.boolean().default(true),
    /**
     * With `background`, how often (milliseconds) a round runs for writes fewer than the
     * thresholds above, so a store that writes a little and then idles is still compacted and
     * cleaned up; 0 turns the schedule off. Default 300000 (5 minutes).
     */
    compactEveryMs: z.number().int().min(0).default(300_000),
    /**
     * Old table versions younger than this (milliseconds) are kept when a round cleans up, for
     * readers still on them; older ones are deleted. LanceDB keeps every version until told
     * otherwise: without cleanup a million memories written in batches took 13 GB. Default 60000.
     */
    keepVersionsMs: z.number().int().min(0).default(60_000),
  })
  .strict();

/** Options of {@link createLanceStore}. */
export const lanceStoreOptionsSchema = z
  .object({
    /**
     * Where the tables live: a directory, or an object-store URI (`s3://bucket/path`,
     * `gs://…`, `az://…`), or `db://…` for LanceDB Cloud. Default `~/.memoir/lancedb`; the
     * `memoir` command (`--store lancedb`) passes `<home>/lancedb`, its home from the settings.
     */
    uri: z.string().min(1, 'expected a directory or a URI').optional(),
    /**
     * Name of the memories table; the record tables are named after it
     * (`<tableName>_opinions`, `_procedures`, `_sessions`, `_entities`, `_meta`). Default `memories`.
     */
    tableName: tableName.default('memories'),
    /**
     * Passed to LanceDB as they are: object-store credentials and settings such as
     * `aws_access_key_id`, `aws_secret_access_key`, `aws_endpoint`, `aws_region`, `allow_http`.
     */
    storageOptions: z.record(z.string(), z.string()).optional(),
    /** LanceDB Cloud API key, for `db://` URIs. */
    apiKey: z.string().min(1).optional(),
    /** LanceDB Cloud region, for `db://` URIs. */
    region: z.string().min(1).optional(),
    /**
     * Seconds between checks for other processes' writes; 0 checks before every read, so a
     * read sees every write another process has acknowledged. Default 0.
     */
    readConsistencyInterval: z.number().min(0).default(0),
    /**
     * Who answers `searchLexical` and `searchVector`: `memoir`, memoir's in-process index (BM25
     * postings and int8 vectors with exact float32 rescoring, the SQLite store's, from
     * memoir/store-kit), kept at the table's version and snapshotted beside the table
     * (`indexSnapshotMinMemories`), so a new process starts from the snapshot and the rows
     * changed since rather than from every row; or `native`, LanceDB's own full-text and vector
     * indexes (and `index.vector`, which `memoir` does not build). Default `memoir`: at 100k
     * memories a recall took 20 ms where `native` took 47 ms (medians of two runs each), and a
     * new process's first recall about 1 s from the snapshot (3.3 s from the rows, 0.4–0.8 s
     * with `native`), on a shared 2-core machine (docs/guides/lancedb.md).
     */
    search: z.enum(['memoir', 'native']).default('memoir'),
    /**
     * With `search: 'memoir'`: once the index holds this many memories it is snapshotted beside
     * the table (`<tableName>_search_snapshot`, through LanceDB, so also on object storage), and
     * the next process to open the store reads the snapshot and the rows changed since instead
     * of building the index from every row. Written in the background after the index is built
     * from rows, after a tenth of the memories changed, and after a maintenance round that
     * follows a hundredth. Default 20000.
     */
    indexSnapshotMinMemories: z.number().int().min(1).default(20_000),
    /** With `search: 'memoir'`: `auto` uses usearch's SIMD kernel when installed, `javascript` never. Default `auto`. */
    vectorKernel: z.enum(['auto', 'javascript']).default('auto'),
    /** Vector index and background optimisation; see each field. */
    index: lanceIndexOptionsSchema.default(lanceIndexOptionsSchema.parse({})),
    /**
     * How many times a write that lost a commit race to another process is retried. Default 20.
     */
    commitRetries: z.number().int().min(0).max(1000).default(20),
    /**
     * Bytes LanceDB may keep of file metadata (manifests, fragment footers) between calls.
     * LanceDB's own default is 1 GiB, which a long run of writes fills with the manifests of
     * versions it no longer reads. Default 64 MiB.
     */
    metadataCacheBytes: z.number().int().min(0).default(67_108_864),
    /**
     * Bytes LanceDB may keep of index pages (vector partitions, full-text postings) between
     * searches. Default LanceDB's own, 6 GiB: an IVF_FLAT index of a million 256-dimension
     * memories is about 1 GiB, and a search that misses the cache reads it from disk again.
     */
    indexCacheBytes: z.number().int().min(0).optional(),
    /**
     * LanceDB's own (Rust) log lines go to stderr only at this level or above; `off` keeps them
     * off stderr. Applied when the library first loads, unless `LANCEDB_LOG` is set. Default `off`.
     */
    nativeLogLevel: z.enum(['off', 'error', 'warn', 'info', 'debug']).default('off'),
    /** Where the store reports background work and failures. Default: stderr, warnings and errors. */
    logger: z
      .custom<Logger>((value) => typeof (value as Logger | undefined)?.log === 'function', 'expected a Logger')
      .optional(),
  })
  .strict();

/**
 * Options of {@link createLanceStore}.
 *
 * @group Adapters
 */
export type LanceStoreOptions = z.input<typeof lanceStoreOptionsSchema>;

/**
 * The `index` options once parsed, every default filled in.
 *
 * @group Adapters
 */
export type LanceIndexSettings = z.output<typeof lanceIndexOptionsSchema>;

/**
 * The directory the store uses when no `uri` is given: `~/.memoir/lancedb`. An adapter reads no
 * settings: a door that honours `home` (MEMOIR_HOME, `--home`) passes `<home>/lancedb` itself.
 */
export function defaultLanceUri(): string {
  return join(homedir(), '.memoir', 'lancedb');
}
