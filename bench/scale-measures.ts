// The measurements bench:scale and bench:guard share: memoir's retain in batches and recall
// latencies, and the baseline both compare them with — the design SQLite had before its
// in-process search index (schema 5: rows inserted raw with FTS5 kept by triggers and a
// sqlite-vec vec0 table; recall's two raw queries, FTS5 bm25 and vec0 KNN, against that file).
import { createRequire } from 'node:module';
import { cpus, totalmem } from 'node:os';
import type { SqliteDatabase, SqliteDatabaseConstructor } from '../src/adapters/sqlite/sqlite-driver.js';
import { migrate } from '../src/adapters/sqlite/sqlite-schema.js';
import { analyzeTerms } from '../src/core/text/analyze.js';
import { createLocalEmbedder, type MemoryClient, type MemoryInput } from '../src/index.js';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as SqliteDatabaseConstructor;
const sqliteVec = require('sqlite-vec') as { load(db: SqliteDatabase): void };

/** The machine a bench ran on, for its table's heading. */
export const machineDescription = () =>
  `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;

/** Memories per retain call, for memoir and the baseline alike. */
export const BATCH = 1000;
/** Candidates per list in the baseline's raw queries (what recall asked for in schema 5). */
export const CANDIDATES = 100;

/** `inputs` in arrays of `size` (the last may be shorter). */
export function* inBatches<T>(inputs: Iterable<T>, size = BATCH): Generator<T[]> {
  let batch: T[] = [];
  for (const input of inputs) {
    batch.push(input);
    if (batch.length < size) continue;
    yield batch;
    batch = [];
  }
  if (batch.length > 0) yield batch;
}

/** Milliseconds one retain call of `batch` takes. */
export async function timeRetainBatch(memory: MemoryClient, batch: MemoryInput[]): Promise<number> {
  const started = performance.now();
  await memory.retain(batch);
  return performance.now() - started;
}

/** Milliseconds of each recall of `queries` (k = 10), in order. */
export async function recallLatencies(memory: MemoryClient, queries: readonly string[]): Promise<number[]> {
  const latencies: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await memory.recall(query, { k: 10 });
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** The first recall's milliseconds (it may load the index), then ten more to warm statements. */
export async function warmRecall(memory: MemoryClient, queries: readonly string[]): Promise<number> {
  const cold = performance.now();
  await memory.recall(queries[0]!, { k: 10 });
  const firstMs = performance.now() - cold;
  for (const query of queries.slice(1, 11)) await memory.recall(query, { k: 10 });
  return firstMs;
}

/** Raw inserts into the schema-5 tables of the rows memoir wrote; see {@link openBaselineWriter}. */
export interface BaselineWriter {
  /**
   * Copies the rows memoir added to `source` since the last call, in transactions of
   * {@link BATCH}, and returns each transaction's milliseconds (reading `source` is not timed).
   */
  copyNewRows(): number[];
  /** Rows copied so far. */
  readonly count: number;
  close(): void;
}

/**
 * A writer of the baseline file `target`: the rows memoir wrote into `source`, inserted raw into
 * the tables SQLite search used before (schema 5: FTS5 by trigger, vec0 beside the embeddings).
 * It can follow `source` while memoir still writes it (WAL), so a bench can interleave the two.
 */
export function openBaselineWriter(source: string, target: string, dimensions: number): BaselineWriter {
  const from = new Database(source, { readonly: true });
  const db = new Database(target);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db, 5);
  sqliteVec.load(db);
  db.exec(`CREATE VIRTUAL TABLE memories_vec USING vec0(embedding float[${dimensions}] distance_metric=cosine)`);
  // The columns both schemas have (schema 5 lacks the change sequence and the embedding flag).
  const baselineColumns = new Set(
    (db.prepare('PRAGMA table_info(memories)').all() as Array<{ name: string }>).map((column) => column.name),
  );
  const columns = (from.prepare('PRAGMA table_info(memories)').all() as Array<{ name: string }>)
    .map((column) => column.name)
    .filter((name) => name !== 'rowid' && baselineColumns.has(name));
  const rowsAfter = from
    .prepare(
      `SELECT m.rowid AS rowid, ${columns.map((c) => `m.${c}`).join(', ')}, e.embedding AS embedding FROM memories m JOIN memory_embeddings e ON e.memory_rowid = m.rowid WHERE m.rowid > ? ORDER BY m.rowid`,
    )
    .raw(true);
  const entities = from.prepare('SELECT entity_key FROM memory_entities WHERE memory_rowid = ?').pluck();
  const insert = db.prepare(
    `INSERT INTO memories (rowid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
  );
  const insertEntity = db.prepare('INSERT INTO memory_entities (memory_rowid, entity_key) VALUES (?, ?)');
  const insertEmbedding = db.prepare('INSERT INTO memory_embeddings (memory_rowid, embedding) VALUES (?, ?)');
  const insertVector = db.prepare('INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)');
  let lastRowid = 0;
  let count = 0;
  const write = (batch: Array<{ row: unknown[]; entities: unknown[] }>) => {
    const started = performance.now();
    db.transaction(() => {
      for (const { row, entities: keys } of batch) {
        const rowid = row[0] as number;
        const embedding = row[row.length - 1];
        insert.run(...row.slice(0, -1));
        for (const key of keys) insertEntity.run(rowid, key);
        insertEmbedding.run(rowid, embedding);
        insertVector.run(BigInt(rowid), embedding);
      }
    })();
    count += batch.length;
    return performance.now() - started;
  };
  return {
    copyNewRows() {
      const timings: number[] = [];
      const rows = rowsAfter.iterate(lastRowid) as IterableIterator<unknown[]>;
      const withEntities = (function* () {
        for (const row of rows) {
          lastRowid = row[0] as number;
          yield { row, entities: entities.all(row[0]) };
        }
      })();
      for (const batch of inBatches(withEntities)) timings.push(write(batch));
      return timings;
    },
    get count() {
      return count;
    },
    close() {
      from.close();
      db.close();
    },
  };
}

/** Recall's two raw queries on a baseline file; see {@link openBaselineSearch}. */
export interface BaselineSearch {
  /** Milliseconds of each query's two raw queries, in order, for the queries from `start` to `end`. */
  latencies(start?: number, end?: number): number[];
  close(): void;
}

/**
 * Recall's two raw queries on the baseline file at `path` for `queries`, nothing around them:
 * the terms and query vectors are prepared (and the statements warmed) before any is timed.
 */
export async function openBaselineSearch(path: string, queries: readonly string[]): Promise<BaselineSearch> {
  const db = new Database(path, { readonly: true });
  db.pragma(`mmap_size = ${1024 ** 3}`);
  sqliteVec.load(db);
  const embedder = createLocalEmbedder();
  const prepared = await Promise.all(
    queries.map(async (query) => ({
      match: [...new Set(analyzeTerms(query))].map((term) => `"${term}"`).join(' OR '),
      vector: Buffer.from((await embedder.embed([query]))[0]!.buffer),
    })),
  );
  const lexical = db.prepare(
    'SELECT rowid, bm25(memories_fts) AS score FROM memories_fts WHERE memories_fts MATCH ? ORDER BY score LIMIT ?',
  );
  const vector = db.prepare('SELECT rowid, distance FROM memories_vec WHERE embedding MATCH ? AND k = ?');
  for (const item of prepared.slice(0, 5)) {
    lexical.all(item.match, CANDIDATES);
    vector.all(item.vector, CANDIDATES);
  }
  return {
    latencies(start = 0, end = prepared.length) {
      const latencies: number[] = [];
      for (const item of prepared.slice(start, end)) {
        const started = performance.now();
        lexical.all(item.match, CANDIDATES);
        vector.all(item.vector, CANDIDATES);
        latencies.push(performance.now() - started);
      }
      return latencies;
    },
    close() {
      db.close();
    },
  };
}
