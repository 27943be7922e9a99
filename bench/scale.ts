// npm run bench:scale [-- --sizes 10000,100000,1000000 --queries 200 --json out.json]
//
// Retain throughput (batches of 1,000, local embedder) and recall latency at k = 10 for the
// in-memory store (up to 100k) and the SQLite store, beside a baseline measured in the same
// run on the very rows memoir wrote: the design SQLite had before its in-process search
// index — rows inserted raw into the schema-5 tables (FTS5 kept by triggers, a sqlite-vec
// vec0 table), and recall's two raw queries against them (FTS5 bm25 and vec0 KNN, 100
// candidates each). Ratios are memoir / baseline for time (below 1 = faster).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore, type SqliteStore } from '../src/adapters/sqlite/index.js';
import type { SqliteDatabase, SqliteDatabaseConstructor } from '../src/adapters/sqlite/sqlite-driver.js';
import { migrate } from '../src/adapters/sqlite/sqlite-schema.js';
import { analyzeTerms } from '../src/core/text/analyze.js';
import {
  createInMemoryStore,
  createLocalEmbedder,
  createMemory,
  type MemoryClient,
  type MemoryInput,
} from '../src/index.js';
import { percentiles } from './latency.js';
import { generateMemories, syntheticQueries } from './synthetic-memories.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '200' },
    'baseline-queries': { type: 'string' },
    'in-memory-max': { type: 'string', default: '100000' },
    json: { type: 'string' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const queryCount = Number(values.queries);
const inMemoryMax = Number(values['in-memory-max']);
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as SqliteDatabaseConstructor;
const sqliteVec = require('sqlite-vec') as { load(db: SqliteDatabase): void };
const BATCH = 1000;
const CANDIDATES = 100;
const MB = 1024 ** 2;

async function timeRetain(memory: MemoryClient, size: number) {
  let batch: MemoryInput[] = [];
  let busy = 0;
  for (const input of generateMemories(size)) {
    batch.push(input);
    if (batch.length < BATCH) continue;
    const started = performance.now();
    await memory.retain(batch);
    busy += performance.now() - started;
    batch = [];
  }
  if (batch.length > 0) {
    const started = performance.now();
    await memory.retain(batch);
    busy += performance.now() - started;
  }
  return size / (busy / 1000);
}

async function timeRecall(memory: MemoryClient, queries: string[]) {
  const cold = performance.now();
  await memory.recall(queries[0]!, { k: 10 });
  const firstMs = performance.now() - cold;
  for (const query of queries.slice(1, 11)) await memory.recall(query, { k: 10 }); // warm statements
  const latencies: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await memory.recall(query, { k: 10 });
    latencies.push(performance.now() - started);
  }
  await memory.flush();
  return { ...percentiles(latencies), firstMs };
}

// The rows memoir wrote, inserted raw into the tables SQLite search used before (schema 5:
// FTS5 by trigger, vec0 beside the embeddings), in batches of the same size.
function baselineRetain(source: string, target: string, dimensions: number) {
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
  const rows = from
    .prepare(
      `SELECT m.rowid AS rowid, ${columns.map((c) => `m.${c}`).join(', ')}, e.embedding AS embedding FROM memories m JOIN memory_embeddings e ON e.memory_rowid = m.rowid ORDER BY m.rowid`,
    )
    .raw(true)
    .iterate() as IterableIterator<unknown[]>;
  const entities = from.prepare('SELECT entity_key FROM memory_entities WHERE memory_rowid = ?').pluck();
  const insert = db.prepare(
    `INSERT INTO memories (rowid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
  );
  const insertEntity = db.prepare('INSERT INTO memory_entities (memory_rowid, entity_key) VALUES (?, ?)');
  const insertEmbedding = db.prepare('INSERT INTO memory_embeddings (memory_rowid, embedding) VALUES (?, ?)');
  const insertVector = db.prepare('INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)');
  let busy = 0;
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
    busy += performance.now() - started;
    count += batch.length;
  };
  let batch: Array<{ row: unknown[]; entities: unknown[] }> = [];
  for (const row of rows) {
    batch.push({ row, entities: entities.all(row[0]) });
    if (batch.length === BATCH) {
      write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) write(batch);
  from.close();
  db.close();
  return count / (busy / 1000);
}

// Recall's two raw queries on the baseline file, nothing around them.
async function baselineRecall(path: string, queries: string[]) {
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
  const latencies: number[] = [];
  for (const item of prepared) {
    const started = performance.now();
    lexical.all(item.match, CANDIDATES);
    vector.all(item.vector, CANDIDATES);
    latencies.push(performance.now() - started);
  }
  db.close();
  return percentiles(latencies);
}

const fileBytes = (path: string) =>
  ['', '-wal'].reduce((sum, suffix) => {
    try {
      return sum + statSync(path + suffix).size;
    } catch {
      return sum;
    }
  }, 0);

interface Row {
  store: string;
  size: number;
  retainPerSecond: number;
  baselineRetainPerSecond: number | null;
  recallP50: number;
  recallP95: number;
  firstRecallMs: number;
  indexLoadMs: number | null;
  snapshotLoadMs: number | null;
  snapshotFirstRecallMs: number | null;
  baselineP50: number | null;
  baselineP95: number | null;
  rssMb: number;
  fileMb: number | null;
  kernel: string | null;
}

const rows: Row[] = [];
const queries = syntheticQueries(queryCount);
const baselineQueries = queries.slice(0, Number(values['baseline-queries'] ?? queryCount));
const quiet = { log: () => {} };

for (const size of sizes) {
  if (size <= inMemoryMax) {
    const inMemory = createMemory({ store: createInMemoryStore(), logger: quiet });
    const retainPerSecond = await timeRetain(inMemory, size);
    const recall = await timeRecall(inMemory, queries);
    const rssMb = process.memoryUsage().rss / MB;
    await inMemory.close();
    rows.push({
      store: 'in-memory',
      size,
      retainPerSecond,
      baselineRetainPerSecond: null,
      recallP50: recall.p50,
      recallP95: recall.p95,
      firstRecallMs: recall.firstMs,
      indexLoadMs: null,
      snapshotLoadMs: null,
      snapshotFirstRecallMs: null,
      baselineP50: null,
      baselineP95: null,
      rssMb,
      fileMb: null,
      kernel: null,
    });
  }

  const home = mkdtempSync(join(tmpdir(), 'memoir-bench-'));
  const path = join(home, 'memoir.sqlite');
  const store: SqliteStore = createSqliteStore({ path, logger: quiet });
  const sqlite = createMemory({ store, logger: quiet });
  const retainPerSecond = await timeRetain(sqlite, size);
  const dimensions = sqlite.embedder.dimensions;
  await sqlite.close();
  // Recall from a fresh process's point of view: the index loads on the first recall.
  const reopenedStore = createSqliteStore({ path, logger: quiet });
  const reopened = createMemory({ store: reopenedStore, logger: quiet });
  const recall = await timeRecall(reopened, queries);
  const rssMb = process.memoryUsage().rss / MB;
  const indexLoadMs = reopenedStore.searchIndexStats()?.lastLoadMs ?? null;
  const kernel = reopenedStore.vectorMode;
  await reopened.close();
  // A third process: the index written by the second comes back from the file.
  const againStore = createSqliteStore({ path, logger: quiet });
  const again = createMemory({ store: againStore, logger: quiet });
  const againStarted = performance.now();
  await again.recall(queries[0]!, { k: 10 });
  const snapshotFirstRecallMs = performance.now() - againStarted;
  const snapshotStats = againStore.searchIndexStats();
  const snapshotLoadMs = snapshotStats?.lastLoadFrom === 'snapshot' ? snapshotStats.lastLoadMs : null;
  await again.close();
  const fileMb = fileBytes(path) / MB;
  const baselinePath = join(home, 'baseline.sqlite');
  const baselineRetainPerSecond = baselineRetain(path, baselinePath, dimensions);
  const baseline = await baselineRecall(baselinePath, baselineQueries);
  rmSync(home, { recursive: true, force: true });
  rows.push({
    store: 'sqlite',
    size,
    retainPerSecond,
    baselineRetainPerSecond,
    recallP50: recall.p50,
    recallP95: recall.p95,
    firstRecallMs: recall.firstMs,
    indexLoadMs,
    snapshotLoadMs,
    snapshotFirstRecallMs,
    baselineP50: baseline.p50,
    baselineP95: baseline.p95,
    rssMb,
    fileMb,
    kernel,
  });
  console.error(`measured ${size.toLocaleString('en-US')} memories`);
}

const fixed = (value: number | null, digits = 1) => (value === null ? '—' : value.toFixed(digits));
const whole = (value: number | null) => (value === null ? '—' : Math.round(value).toLocaleString('en-US'));
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? '—' : (a / b).toFixed(2));
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;

const lines = [
  `memoir bench:scale — ${new Date().toISOString().slice(0, 10)} — ${machine}`,
  `local embedder (${createLocalEmbedder().dimensions} dimensions), retain in batches of ${BATCH}, ${queryCount} recall queries at k=10 (${CANDIDATES} candidates per list); baseline = schema-5 SQLite (FTS5 + vec0) on the same rows, ${baselineQueries.length} queries`,
  '',
  '| store | memories | retain/s | baseline retain/s | retain speed-up | recall p50 ms | recall p95 ms | baseline p50 ms | baseline p95 ms | p50 ratio | first recall ms | index load ms | snapshot load ms | first recall, snapshot ms | RSS MB | file MB |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.store}${row.kernel ? ` (${row.kernel})` : ''} | ${whole(row.size)} | ${whole(row.retainPerSecond)} | ${whole(row.baselineRetainPerSecond)} | ${ratio(row.retainPerSecond, row.baselineRetainPerSecond)} | ${fixed(row.recallP50, 2)} | ${fixed(row.recallP95, 2)} | ${fixed(row.baselineP50, 2)} | ${fixed(row.baselineP95, 2)} | ${ratio(row.recallP50, row.baselineP50)} | ${whole(row.firstRecallMs)} | ${whole(row.indexLoadMs)} | ${whole(row.snapshotLoadMs)} | ${whole(row.snapshotFirstRecallMs)} | ${whole(row.rssMb)} | ${fixed(row.fileMb, 0)} |`,
  ),
  '',
  'retain speed-up = memoir rate / baseline rate; p50 ratio = memoir recall p50 / baseline raw-query p50 (memoir includes embedding, ranking and packing).',
  'first recall / index load: a process opening the store after retain builds the index from the rows; snapshot: the next process reads back the index the previous one wrote into the file.',
  'RSS is the whole bench process after that row (it includes what earlier rows left on the heap).',
  'goals: SQLite at 100k recall p50 <= 10 ms, p95 <= 20 ms; retain >= 10,000/s at 100k; at 1M recall p50 <= 100 ms.',
];
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
