import type { Logger } from '../../core/spec/runtime.js';
import type { LanceLibraries, LanceTable } from './lancedb-driver.js';
import type { LanceIndexSettings } from './lancedb-store-options.js';

// LanceDB commits optimistically; a writer that lost the race to another process (or to the
// background optimiser) gets one of these and may simply try again.
const COMMIT_CONFLICT = /conflict|retryable|preempted|concurrent|Too many concurrent writers/i;

/** Whether `error` is a lost commit race, which trying again resolves. */
export function isCommitConflict(error: unknown): boolean {
  return COMMIT_CONFLICT.test(error instanceof Error ? error.message : String(error));
}

/** A vector index is trained again once the table holds this many times the rows it was trained on. */
const REBUILD_GROWTH = 2;

/** What one write of access counts adds towards `optimizeAfterCommits`. */
const ACCESS_WRITE_WEIGHT = 0.25;

/** The vector column's index, if any. */
export async function vectorIndexName(table: LanceTable): Promise<string | null> {
  const indices = await table.listIndices();
  return indices.find((index) => index.columns.includes('vector'))?.name ?? null;
}

/**
 * Rebuild a scalar index that covers no rows while the table has some. Seen with LanceDB
 * 0.37.1: the B-tree on `id`, created on the empty table, stayed at 0 of 50,000 rows through
 * every optimize while the others were folded in, so each lookup by id scanned the table.
 */
async function reviveStaleIndexes({ lancedb }: LanceLibraries, table: LanceTable): Promise<void> {
  for (const index of await table.listIndices()) {
    const type = index.indexType.toUpperCase();
    if (type !== 'BTREE' && type !== 'BITMAP') continue;
    const stats = await table.indexStats(index.name);
    if (!stats || stats.numIndexedRows > 0 || stats.numUnindexedRows === 0) continue;
    const config = type === 'BTREE' ? lancedb.Index.btree() : lancedb.Index.bitmap();
    await table.createIndex(index.columns[0]!, { config, replace: true });
  }
}

/**
 * How many IVF partitions an index of `rows` vectors gets. Flat and PQ partitions are scanned
 * whole, so about √n of them keeps both the centroid scan and each partition small (1,000 at
 * a million); an HNSW graph searches a large partition well, so those get one per ~250,000.
 *
 * @internal exported for the tests and the bench
 */
export function partitionsFor(rows: number, kind: LanceIndexSettings['vector']): number {
  if (kind === 'ivf-hnsw-sq' || kind === 'ivf-hnsw-pq') return Math.max(1, Math.round(rows / 250_000));
  return Math.max(1, Math.round(Math.sqrt(rows)));
}

/**
 * Build the configured vector index over the embedded rows (cosine), replacing any there is;
 * resolves to the number of rows it was trained on.
 */
export async function buildVectorIndex(
  { lancedb }: LanceLibraries,
  table: LanceTable,
  settings: LanceIndexSettings,
  dimensions: number,
): Promise<number> {
  if (settings.vector === 'none') return 0;
  const rows = await table.countRows('vector IS NOT NULL');
  const numPartitions = partitionsFor(rows, settings.vector);
  // 8 dimensions per PQ sub-vector (32 bytes a vector at 256): 16 lost too much of the hashed
  // local vectors for refine to make up; fewer sub-vectors for small embedders.
  const numSubVectors = Math.max(1, Math.floor(dimensions / 8));
  // m 16 / efConstruction 150 built 50k rows in 23 s here with recall@50 1.00 under a 5 % scope
  // prefilter; m 20 / 300 took 308 s for 100k for no better recall.
  const graph = { distanceType: 'cosine' as const, numPartitions, m: 16, efConstruction: 150 };
  const config =
    settings.vector === 'ivf-hnsw-sq'
      ? lancedb.Index.hnswSq(graph)
      : settings.vector === 'ivf-hnsw-pq'
        ? lancedb.Index.hnswPq({ ...graph, numSubVectors })
        : settings.vector === 'ivf-flat'
          ? lancedb.Index.ivfFlat({ distanceType: 'cosine', numPartitions })
          : lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions, numSubVectors });
  await table.createIndex('vector', { config, replace: true });
  return rows;
}

/**
 * Runs one commit-making step of a round (an optimise, an index build) so that it cannot commit
 * at the same moment as the store's own writes, where the storage cannot tell two commits of one
 * table version apart.
 */
export type CommitLock = <R>(commit: () => Promise<R>) => Promise<R>;

/**
 * Keeps a table's indexes up with its writes, in the background: builds the vector index
 * once enough rows are embedded, and after every `optimizeAfterRows` written rows compacts
 * small fragments and folds the new rows into the full-text, scalar and vector indexes.
 * One job at a time. On a directory writers never wait for it: LanceDB commits a version by a
 * rename that fails when the version exists, so the loser of a race retries. An object store
 * must refuse a second put of the same manifest (a conditional write) for that to hold, and
 * an S3-compatible server that ignores `If-None-Match` (s3rver does) silently keeps the
 * last — an acknowledged write vanished under a concurrent optimise, or the manifest came
 * back torn — so there each step takes the store's write lock (`commitLock`).
 * `drain()` waits for the running job, as `close()` must.
 */
export class LanceMaintenance {
  #pending = 0;
  #commits = 0;
  /** Rows in the memories table at the last round. */
  #tableRows = 0;
  readonly #dirty = new Set<string>();
  #job: Promise<void> | null = null;
  #timer: NodeJS.Timeout | undefined;
  /** Embedded rows the vector index was trained on; null until known. */
  #trainedOn: number | null = null;

  constructor(
    private readonly libraries: () => LanceLibraries,
    private readonly table: (name: string) => Promise<LanceTable>,
    private readonly memoriesTable: string,
    private readonly settings: LanceIndexSettings,
    private readonly dimensions: () => number | null,
    private readonly logger: Logger,
    private readonly commitLock: CommitLock = (commit) => commit(),
    private readonly afterRound: () => void = () => {},
  ) {}

  /**
   * Count one commit of `rows` rows; starts a job when enough rows or commits have piled up,
   * if background work is on. Every commit adds a fragment, and a read visits each fragment
   * (200 one-row fragments make a lookup by id ~40× slower), so many small writes need
   * compacting as much as many rows need indexing.
   */
  noteWrites(table: string, rows: number): void {
    this.#dirty.add(table);
    this.#pending += rows;
    this.#commits += 1;
    this.#maybeStart();
  }

  /**
   * Count one write of gathered access counts. Each leaves a small fragment too, but they come
   * every second while recall runs, and a round started by every 16 of them ran the optimiser
   * beside the searches (recall p95 681 ms instead of 209 ms at 100k on 2 cores): they count
   * as a quarter of a commit, so a process that only recalls compacts about once a minute.
   */
  noteAccessWrite(table: string): void {
    this.#dirty.add(table);
    this.#commits += ACCESS_WRITE_WEIGHT;
    this.#maybeStart();
  }

  #maybeStart(): void {
    if (!this.settings.background || this.#job) return;
    // Each round re-reads what it folds in, so on a large table it waits for a tenth more rows:
    // bulk loading then costs O(n log n) index work instead of O(n²).
    const rowsDue = Math.max(this.settings.optimizeAfterRows, Math.floor(this.#tableRows / 10));
    if (this.#pending < rowsDue && this.#commits < this.settings.optimizeAfterCommits) return;
    this.#pending = 0;
    this.#commits = 0;
    this.#job = this.run(false)
      .catch((error: unknown) => {
        // A writer won the race for the commit: the work is redone on the next round.
        if (isCommitConflict(error)) {
          this.#commits = this.settings.optimizeAfterCommits;
          this.logger.log('debug', `lancedb: background optimisation deferred: ${String(error)}`);
        } else this.logger.log('warn', `lancedb: background index maintenance failed: ${String(error)}`);
      })
      .finally(() => {
        this.#job = null;
      });
  }

  /** Wait for the running job, if any. */
  async drain(): Promise<void> {
    await this.#job;
  }

  /**
   * Run a round every `everyMs` while writes are waiting for one (fewer than the thresholds
   * of {@link noteWrites}), so a process that writes a little and then idles still compacts
   * and cleans up old versions. The timer never holds the process open.
   */
  schedule(everyMs: number): void {
    this.stop();
    if (everyMs <= 0 || !this.settings.background) return;
    this.#timer = setInterval(() => {
      if (this.#job || (this.#pending === 0 && this.#commits === 0)) return;
      this.#commits = this.settings.optimizeAfterCommits;
      this.#maybeStart();
    }, everyMs);
    this.#timer.unref();
  }

  /** Stop the schedule (a running round still finishes; `drain()` waits for it). */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Compact and update every index now; with `forceVectorIndex`, build the vector index
   * whatever the row count (when the store has an embedder and an index type). A vector index
   * trained on half the rows the table now holds is built again, in the background like the
   * rest, so its partitions follow the table's growth; until then new rows are folded into the
   * partitions it has.
   */
  async run(forceVectorIndex: boolean): Promise<void> {
    const memories = await this.table(this.memoriesTable);
    const dimensions = this.dimensions();
    let built = false;
    if (dimensions !== null && this.settings.vector !== 'none') {
      const name = await vectorIndexName(memories);
      const embedded = await memories.countRows('embedded = true');
      if (name !== null && this.#trainedOn === null) {
        // Opened on an existing index: take it as trained on what it covers now.
        this.#trainedOn = (await memories.indexStats(name))?.numIndexedRows ?? embedded;
      }
      const due =
        name === null
          ? forceVectorIndex || embedded >= this.settings.vectorIndexMinRows
          : embedded >= REBUILD_GROWTH * Math.max(1, this.#trainedOn ?? embedded);
      if (due && embedded > 0) {
        const started = performance.now();
        this.#trainedOn = await this.commitLock(() =>
          buildVectorIndex(this.libraries(), memories, this.settings, dimensions),
        );
        built = true;
        this.logger.log('info', `lancedb: built the ${this.settings.vector} vector index`, {
          rows: this.#trainedOn,
          ms: Math.round(performance.now() - started),
        });
      }
    }
    const dirty = new Set([...this.#dirty, this.memoriesTable]);
    this.#dirty.clear();
    for (const name of dirty) {
      // Versions younger than `keepVersionsMs` stay for readers still on them; older ones go.
      const table = await this.table(name);
      for (let attempt = 0; ; attempt++) {
        try {
          await this.commitLock(() =>
            table.optimize({ cleanupOlderThan: new Date(Date.now() - this.settings.keepVersionsMs) }),
          );
          break;
        } catch (error) {
          if (attempt >= 4 || !isCommitConflict(error)) throw error;
        }
      }
    }
    await this.commitLock(() => reviveStaleIndexes(this.libraries(), memories));
    if (built) this.#pending = 0;
    this.#tableRows = await memories.countRows();
    this.afterRound();
  }
}
