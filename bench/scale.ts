// npm run bench:scale [-- --sizes 10000,100000,1000000 --queries 200 --json out.json]
//
// Retain throughput (batches of 1,000, local embedder) and recall latency at k = 10 for the
// in-memory store (up to 100k) and the SQLite store, beside a baseline measured in the same
// run on the very rows memoir wrote: the design SQLite had before its in-process search
// index — rows inserted raw into the schema-5 tables (FTS5 kept by triggers, a sqlite-vec
// vec0 table), and recall's two raw queries against them (FTS5 bm25 and vec0 KNN, 100
// candidates each). Ratios are memoir / baseline for time (below 1 = faster).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore, type SqliteStore } from '../src/adapters/sqlite/index.js';
import { createInMemoryStore, createLocalEmbedder, createMemory, type MemoryClient } from '../src/index.js';
import { percentiles } from './latency.js';
import {
  BATCH,
  CANDIDATES,
  inBatches,
  machineDescription,
  openBaselineSearch,
  openBaselineWriter,
  recallLatencies,
  timeRetainBatch,
  warmRecall,
} from './scale-measures.js';
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
const MB = 1024 ** 2;

async function timeRetain(memory: MemoryClient, size: number) {
  let busy = 0;
  for (const batch of inBatches(generateMemories(size))) busy += await timeRetainBatch(memory, batch);
  return size / (busy / 1000);
}

async function timeRecall(memory: MemoryClient, queries: string[]) {
  const firstMs = await warmRecall(memory, queries);
  const latencies = await recallLatencies(memory, queries);
  await memory.flush();
  return { ...percentiles(latencies), firstMs };
}

// The rows memoir wrote, inserted raw into the schema-5 tables, in batches of the same size.
function baselineRetain(source: string, target: string, dimensions: number) {
  const writer = openBaselineWriter(source, target, dimensions);
  const busy = writer.copyNewRows().reduce((sum, ms) => sum + ms, 0);
  const count = writer.count;
  writer.close();
  return count / (busy / 1000);
}

// Recall's two raw queries on the baseline file, nothing around them.
async function baselineRecall(path: string, queries: string[]) {
  const search = await openBaselineSearch(path, queries);
  const latencies = search.latencies();
  search.close();
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
const machine = machineDescription();

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
