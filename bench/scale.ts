// npm run bench:scale [-- --sizes 10000,100000 --queries 200 --json out.json]
//
// Retain throughput (batches of 1,000, local embedder) and recall latency for the
// in-memory and SQLite stores, beside the floor measured in the same run: raw
// better-sqlite3 inserts of the very rows memoir wrote, and the raw FTS5 + vec0 queries
// memoir's recall issues. Ratios are memoir / floor for time (so 1.3 = 30 % slower).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SqliteDatabase, SqliteDatabaseConstructor } from '../src/adapters/sqlite/sqlite-driver.js';
import { migrate } from '../src/adapters/sqlite/sqlite-schema.js';
import { analyzeTerms } from '../src/core/text/analyze.js';
import { createInMemoryStore, createLocalEmbedder, createMemory, type MemoryClient } from '../src/index.js';
import { syntheticMemories, syntheticQueries } from './synthetic-memories.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '200' },
    json: { type: 'string' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const queryCount = Number(values.queries);
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as SqliteDatabaseConstructor;
const sqliteVec = require('sqlite-vec') as { load(db: SqliteDatabase): void };
const BATCH = 1000;
const CANDIDATES = 100;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

async function timeRetain(memory: MemoryClient, inputs: ReturnType<typeof syntheticMemories>) {
  const started = performance.now();
  for (let start = 0; start < inputs.length; start += BATCH) await memory.retain(inputs.slice(start, start + BATCH));
  return inputs.length / ((performance.now() - started) / 1000);
}

async function timeRecall(memory: MemoryClient, queries: string[]) {
  for (const query of queries.slice(0, 10)) await memory.recall(query); // warm caches and statements
  const latencies: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await memory.recall(query, { k: 10 });
    latencies.push(performance.now() - started);
  }
  await memory.flush();
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) };
}

// Raw inserts of the rows memoir wrote, into a fresh database with the same schema.
function floorRetain(source: string, dimensions: number) {
  const from = new Database(source, { readonly: true });
  const rows = from.prepare('SELECT * FROM memories ORDER BY rowid').all() as Array<Record<string, unknown>>;
  const entityRows = from.prepare('SELECT * FROM memory_entities').all() as Array<Record<string, unknown>>;
  const embeddings = new Map(
    (
      from.prepare('SELECT memory_rowid, embedding FROM memory_embeddings').all() as Array<{
        memory_rowid: number;
        embedding: Buffer;
      }>
    ).map((row) => [row.memory_rowid, row.embedding]),
  );
  from.close();
  const directory = mkdtempSync(join(tmpdir(), 'memoir-floor-'));
  const db = new Database(join(directory, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  sqliteVec.load(db);
  db.exec(`CREATE VIRTUAL TABLE memories_vec USING vec0(embedding float[${dimensions}] distance_metric=cosine)`);
  const columns = Object.keys(rows[0]!).filter((column) => column !== 'rowid');
  const insert = db.prepare(
    `INSERT INTO memories (rowid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
  );
  const insertEntity = db.prepare('INSERT INTO memory_entities (memory_rowid, entity_key) VALUES (?, ?)');
  const insertEmbedding = db.prepare('INSERT INTO memory_embeddings (memory_rowid, embedding) VALUES (?, ?)');
  const insertVector = db.prepare('INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)');
  const entitiesByRow = new Map<unknown, unknown[]>();
  for (const row of entityRows)
    entitiesByRow.set(row.memory_rowid, [...(entitiesByRow.get(row.memory_rowid) ?? []), row.entity_key]);
  const started = performance.now();
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    db.transaction(() => {
      for (const row of batch) {
        insert.run(row.rowid, ...columns.map((column) => row[column]));
        for (const entity of entitiesByRow.get(row.rowid) ?? []) insertEntity.run(row.rowid, entity);
        const embedding = embeddings.get(row.rowid as number);
        insertEmbedding.run(row.rowid, embedding);
        insertVector.run(BigInt(row.rowid as number), embedding);
      }
    })();
  }
  const perSecond = rows.length / ((performance.now() - started) / 1000);
  db.close();
  rmSync(directory, { recursive: true, force: true });
  return perSecond;
}

// The two SQL queries behind a recall, on memoir's own file, with nothing around them.
async function floorRecall(path: string, queries: string[]) {
  const db = new Database(path, { readonly: true });
  db.pragma(`mmap_size = ${1024 ** 3}`); // as memoir's store sets it
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
  for (const item of prepared.slice(0, 10)) {
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
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) };
}

interface Row {
  store: string;
  size: number;
  retainPerSecond: number;
  floorRetainPerSecond: number | null;
  recallP50: number;
  recallP95: number;
  floorP50: number | null;
  floorP95: number | null;
}

const rows: Row[] = [];
const queries = syntheticQueries(queryCount);
const quiet = { log: () => {} };

for (const size of sizes) {
  const inputs = syntheticMemories(size);

  const inMemory = createMemory({ store: createInMemoryStore(), logger: quiet });
  const inMemoryRetain = await timeRetain(inMemory, inputs);
  const inMemoryRecall = await timeRecall(inMemory, queries);
  await inMemory.close();
  rows.push({
    store: 'in-memory',
    size,
    retainPerSecond: inMemoryRetain,
    floorRetainPerSecond: null,
    recallP50: inMemoryRecall.p50,
    recallP95: inMemoryRecall.p95,
    floorP50: null,
    floorP95: null,
  });

  const home = mkdtempSync(join(tmpdir(), 'memoir-bench-'));
  const sqlite = createMemory({ home, logger: quiet });
  const sqliteRetain = await timeRetain(sqlite, inputs);
  const sqliteRecall = await timeRecall(sqlite, queries);
  const dimensions = sqlite.embedder.dimensions;
  await sqlite.close();
  const path = join(home, 'memoir.sqlite');
  const floorInsert = floorRetain(path, dimensions);
  const floorQuery = await floorRecall(path, queries);
  rmSync(home, { recursive: true, force: true });
  rows.push({
    store: 'sqlite',
    size,
    retainPerSecond: sqliteRetain,
    floorRetainPerSecond: floorInsert,
    recallP50: sqliteRecall.p50,
    recallP95: sqliteRecall.p95,
    floorP50: floorQuery.p50,
    floorP95: floorQuery.p95,
  });
  console.error(`measured ${size.toLocaleString('en-US')} memories`);
}

const fixed = (value: number | null, digits = 1) => (value === null ? '—' : value.toFixed(digits));
const whole = (value: number | null) => (value === null ? '—' : Math.round(value).toLocaleString('en-US'));
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;

const lines = [
  `memoir bench:scale — ${new Date().toISOString().slice(0, 10)} — ${machine}`,
  `local embedder (${createLocalEmbedder().dimensions} dimensions), retain in batches of ${BATCH}, ${queryCount} recall queries at k=10 (${CANDIDATES} candidates per list)`,
  '',
  '| store | memories | retain/s | floor retain/s | retain ratio | recall p50 ms | recall p95 ms | floor p50 ms | floor p95 ms | p50 ratio |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.store} | ${whole(row.size)} | ${whole(row.retainPerSecond)} | ${whole(row.floorRetainPerSecond)} | ${
        row.floorRetainPerSecond ? fixed(row.floorRetainPerSecond / row.retainPerSecond, 2) : '—'
      } | ${fixed(row.recallP50, 2)} | ${fixed(row.recallP95, 2)} | ${fixed(row.floorP50, 2)} | ${fixed(row.floorP95, 2)} | ${
        row.floorP50 ? fixed(row.recallP50 / row.floorP50, 2) : '—'
      } |`,
  ),
  '',
  'retain ratio = floor rate / memoir rate (time memoir takes per floor second); p50 ratio = memoir p50 / floor p50.',
  `goals: SQLite retain >= 5,000/s; recall p50 <= 10 ms at 100k; recall within 2x of the floor. median of p50s: ${fixed(median(rows.map((row) => row.recallP50)), 2)} ms`,
];
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
