// npm run bench:scale:lancedb [-- --sizes 100000,1000000 --queries 200 --users 20 --index ivf-flat --json out.json]
//
// The LanceDB store at scale: retain throughput (local embedder, batches of 10,000), the
// index build, disk size and peak RSS; then recall latency of a client scoped to one user
// beside the floor measured in the same run (the raw full-text and vector queries memoir's
// recall issues, sent to LanceDB directly with the same prefilter), and the vector recall@50
// of the index against exact search under that prefilter.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLanceStore, type LanceStore } from '../src/adapters/lancedb/index.js';
import { memoryWhere } from '../src/adapters/lancedb/lancedb-filter.js';
import { analyzeTerms } from '../src/core/text/analyze.js';
import { createLocalEmbedder, createMemory, type MemoryClient } from '../src/index.js';
import { percentiles } from './latency.js';
import { syntheticMemories, syntheticQueries } from './synthetic-memories.js';

// Set before LanceDB loads, as the store does: its Rust log lines stay off the table's output.
process.env.LANCEDB_LOG ??= 'off';
const lancedb = await import('@lancedb/lancedb');

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    queries: { type: 'string', default: '200' },
    users: { type: 'string', default: '20' },
    index: { type: 'string', default: 'ivf-flat' },
    json: { type: 'string' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const queryCount = Number(values.queries);
const users = Number(values.users);
const indexKind = values.index as 'ivf-hnsw-sq' | 'ivf-flat' | 'ivf-pq' | 'none';
const BATCH = 10_000;
const CANDIDATES = 100; // what recall asks each list for at k=10
const RECALL_AT = 50;
const quiet = { log: () => {} };

const median = (list: number[]) => percentiles(list).p50;
const userOf = (index: number) => `user-${index % users}`;
const diskBytes = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);

async function ingest(memory: MemoryClient, size: number) {
  const inputs = syntheticMemories(size);
  const started = performance.now();
  for (let start = 0; start < size; start += BATCH) {
    const batch = inputs.slice(start, start + BATCH).map((input, offset) => ({
      ...input,
      scope: { userId: userOf(start + offset) },
    }));
    await memory.retain(batch);
  }
  return size / ((performance.now() - started) / 1000);
}

async function timeRecall(memory: MemoryClient, queries: string[]) {
  for (const query of queries.slice(0, 10)) await memory.recall(query, { k: 10 });
  const latencies: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await memory.recall(query, { k: 10 });
    latencies.push(performance.now() - started);
  }
  await memory.flush();
  return percentiles(latencies);
}

// The two queries behind a scoped recall, as the store sends them, with nothing around them.
async function floorRecall(uri: string, queries: string[], vectors: Float32Array[], store: LanceStore) {
  const settings = store.indexSettings;
  const db = await lancedb.connect(uri, { readConsistencyInterval: 0 });
  const table = await db.openTable('memories');
  // The filter a scoped recall passes: the client's scope, memories valid now.
  const where = memoryWhere({ scope: { userId: userOf(0) }, validAt: new Date().toISOString() })!;
  const run = async (index: number) => {
    const terms = [...new Set(analyzeTerms(queries[index]!))].join(' ');
    await table
      .query()
      .fullTextSearch(new lancedb.MatchQuery(terms, 'lexical_terms', { operator: lancedb.Operator.Or }))
      .where(where)
      .select(['id', '_score'])
      .limit(CANDIDATES + 8)
      .toArray();
    let search = table
      .vectorSearch(vectors[index]!)
      .distanceType('cosine')
      .where(where)
      .select(['id', '_distance'])
      .limit(CANDIDATES + 8)
      .minimumNprobes(settings.nprobes)
      .maximumNprobes(0)
      .refineFactor(settings.refineFactor);
    if (settings.vector === 'ivf-hnsw-sq')
      search = search.ef(Math.max(settings.ef, (CANDIDATES + 8) * settings.refineFactor));
    await search.toArray();
  };
  for (let index = 0; index < 10; index++) await run(index);
  const latencies: number[] = [];
  for (let index = 0; index < queries.length; index++) {
    const started = performance.now();
    await run(index);
    latencies.push(performance.now() - started);
  }
  db.close();
  return percentiles(latencies);
}

// Recall@50 of what the store returns (index, prefilter) against exact search under the same prefilter.
async function vectorRecall(uri: string, store: LanceStore, vectors: Float32Array[]) {
  const db = await lancedb.connect(uri);
  const table = await db.openTable('memories');
  const where = `user_id = '${userOf(0)}'`;
  const recalls: number[] = [];
  for (const vector of vectors) {
    const hits = await store.searchVector({ vector, limit: RECALL_AT, filter: { scope: { userId: userOf(0) } } });
    const exact = (await table
      .vectorSearch(vector)
      .distanceType('cosine')
      .where(where)
      .bypassVectorIndex()
      .select(['id', '_distance'])
      .limit(RECALL_AT)
      .toArray()) as Array<{ id: string }>;
    const found = new Set(hits.map((hit) => hit.id));
    recalls.push(exact.filter((row) => found.has(row.id)).length / Math.max(1, exact.length));
  }
  db.close();
  return recalls.reduce((sum, value) => sum + value, 0) / recalls.length;
}

interface Row {
  size: number;
  retainPerSecond: number;
  indexSeconds: number;
  diskMiB: number;
  peakRssMiB: number;
  recallP50: number;
  recallP95: number;
  floorP50: number;
  floorP95: number;
  vectorRecall: number;
}

const rows: Row[] = [];
const queries = syntheticQueries(queryCount);
const embedder = createLocalEmbedder();
const vectors = await embedder.embed(queries);

for (const size of sizes) {
  const uri = mkdtempSync(join(tmpdir(), 'memoir-bench-lancedb-'));
  const store = createLanceStore({ uri, logger: quiet, index: { vector: indexKind } });
  const writer = createMemory({ store, embedder, logger: quiet });
  const retainPerSecond = await ingest(writer, size);
  console.error(`retained ${size.toLocaleString('en-US')} at ${Math.round(retainPerSecond)}/s`);
  const indexStarted = performance.now();
  await store.optimize({ vectorIndex: true });
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  console.error(`indexes built in ${indexSeconds.toFixed(1)} s`);
  await writer.close();
  const diskMiB = diskBytes(uri) / 2 ** 20;

  const reader = createLanceStore({ uri, logger: quiet, index: { vector: indexKind } });
  const memory = createMemory({ store: reader, embedder, scope: { userId: userOf(0) }, logger: quiet });
  const recall = await timeRecall(memory, queries);
  const floor = await floorRecall(uri, queries, vectors, reader);
  const vectorRecallAt50 = await vectorRecall(uri, reader, vectors);
  await memory.close();
  rows.push({
    size,
    retainPerSecond,
    indexSeconds,
    diskMiB,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    recallP50: recall.p50,
    recallP95: recall.p95,
    floorP50: floor.p50,
    floorP95: floor.p95,
    vectorRecall: vectorRecallAt50,
  });
  rmSync(uri, { recursive: true, force: true });
  // Each size as soon as it is measured: a million rows take a while.
  console.error(`measured ${size.toLocaleString('en-US')} memories: ${JSON.stringify(rows.at(-1))}`);
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const settings = createLanceStore({ uri: tmpdir(), index: { vector: indexKind } }).indexSettings;

const lines = [
  `memoir bench:scale:lancedb — ${new Date().toISOString().slice(0, 10)} — ${machine}`,
  `local embedder (${embedder.dimensions} dimensions), retain in batches of ${BATCH.toLocaleString('en-US')}, ${users} users (scope = one user, ${fixed(100 / users, 0)} % of rows), ${queryCount} recall queries at k=10 (${CANDIDATES} candidates per list); vector index ${settings.vector}${settings.vector === 'ivf-hnsw-sq' ? ` ef ${settings.ef}` : ''}, nprobes ≥ ${settings.nprobes}, refine ×${settings.refineFactor}`,
  '',
  '| memories | retain/s | index build s | disk MiB | peak RSS MiB | recall p50 ms | recall p95 ms | floor p50 ms | floor p95 ms | p50 ratio | vector recall@50 |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${whole(row.size)} | ${whole(row.retainPerSecond)} | ${fixed(row.indexSeconds)} | ${whole(row.diskMiB)} | ${whole(row.peakRssMiB)} | ${fixed(row.recallP50, 2)} | ${fixed(row.recallP95, 2)} | ${fixed(row.floorP50, 2)} | ${fixed(row.floorP95, 2)} | ${fixed(row.recallP50 / row.floorP50, 2)} | ${fixed(row.vectorRecall, 3)} |`,
  ),
  '',
  'floor = the full-text and vector queries recall sends, straight to LanceDB with the same prefilter; p50 ratio = memoir p50 / floor p50; peak RSS is the whole bench process so far.',
  `goals: 1M recall p50 <= 20 ms with vector recall@50 >= 0.95; recall within 1.5x of the floor; retain >= 20,000/s. median of p50s: ${fixed(median(rows.map((row) => row.recallP50)), 2)} ms`,
];
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
