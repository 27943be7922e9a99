// npm run bench:scale:lancedb [-- --million | --size 100000] [--queries 200 --users 20 --workers 0
//   --search memoir|native --index ivf-flat --try ivf-pq,ivf-hnsw-sq,ivf-hnsw-pq --recall-queries 50 --json out.json]
//
// The LanceDB store at one size (100,000 memories, or a million with --million), in one run:
// retain throughput (local embedder, batches of 10,000), the index build, disk and peak RSS;
// memoir's recall latency for a client scoped to one user beside the floor — ONE raw hybrid
// LanceDB query (full text + vector, fused by RRF) with the same prefilter and index settings;
// and the vector recall@50 against exact search under that prefilter, for the store's setting
// and every other setting tried (`--try` rebuilds the index with each kind named, after).
// `--search` picks who answers the store's searches (memoir's in-process index, or LanceDB's
// native indexes); the store's own searchVector is scored against exact search too. Disk is
// read after the ingest and again after the store's own maintenance round with old versions
// removed at once (compaction, index fold, cleanup): the second is the figure. Then a fresh
// store's first recall, twice: with search memoir the first builds the index from every row
// and leaves a snapshot beside the table (its disk is shown apart), which the second starts from.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { VectorQuery } from '@lancedb/lancedb';
import { createLanceStore, type LanceStore } from '../src/adapters/lancedb/index.js';
import { memoryWhere } from '../src/adapters/lancedb/lancedb-filter.js';
import { buildVectorIndex } from '../src/adapters/lancedb/lancedb-maintenance.js';
import type { LanceIndexSettings } from '../src/adapters/lancedb/lancedb-store-options.js';
import { analyzeTerms } from '../src/core/text/analyze.js';
import { createLocalEmbedder, createMemory, type MemoryClient, type MemoryInput } from '../src/index.js';
import { percentiles } from './latency.js';
import { generateMemories, syntheticQueries } from './synthetic-memories.js';

// Set before LanceDB loads, as the store does: its Rust log lines stay off the table's output.
process.env.LANCEDB_LOG ??= 'off';
const lancedb = await import('@lancedb/lancedb');
const arrow = await import('apache-arrow');

const { values } = parseArgs({
  options: {
    million: { type: 'boolean', default: false },
    size: { type: 'string' },
    queries: { type: 'string', default: '200' },
    'recall-queries': { type: 'string', default: '50' },
    users: { type: 'string', default: '20' },
    workers: { type: 'string', default: '0' },
    index: { type: 'string' },
    search: { type: 'string' },
    try: { type: 'string', default: '' },
    json: { type: 'string' },
  },
});
type VectorKind = LanceIndexSettings['vector'];
const size = Number(values.size ?? (values.million ? 1_000_000 : 100_000));
const queryCount = Number(values.queries);
const recallQueries = Number(values['recall-queries']);
const users = Number(values.users);
const workers = Number(values.workers);
const tried = values.try ? (values.try.split(',') as VectorKind[]) : [];
const BATCH = 10_000;
const CANDIDATES = 100; // what recall asks each list for at k=10
const RECALL_AT = 50;
const quiet = { log: () => {} };

const userOf = (index: number) => `user-${index % users}`;
const diskBytes = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
const fixed = (value: number, digits = 1) => value.toFixed(digits);
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function ingest(memory: MemoryClient) {
  const started = performance.now();
  let batch: MemoryInput[] = [];
  let index = 0;
  for (const input of generateMemories(size)) {
    batch.push({ ...input, scope: { userId: userOf(index++) } });
    if (batch.length === BATCH) {
      await memory.retain(batch);
      batch = [];
      if (index % 100_000 === 0) log(`retained ${whole(index)}`);
    }
  }
  if (batch.length > 0) await memory.retain(batch);
  return size / ((performance.now() - started) / 1000);
}

async function timed(queries: number, run: (index: number) => Promise<unknown>) {
  for (let index = 0; index < Math.min(10, queries); index++) await run(index);
  const latencies: number[] = [];
  for (let index = 0; index < queries; index++) {
    const started = performance.now();
    await run(index);
    latencies.push(performance.now() - started);
  }
  return percentiles(latencies);
}

/** Search settings of one vector index kind: what the store uses, and what else is tried. */
interface SearchSetting {
  nprobes: number;
  refineFactor: number;
  ef?: number;
}

function withSetting(search: VectorQuery, kind: VectorKind, setting: SearchSetting, fetch: number): VectorQuery {
  let query = search.maximumNprobes(0).minimumNprobes(setting.nprobes).refineFactor(setting.refineFactor);
  if (kind.startsWith('ivf-hnsw')) query = query.ef(Math.max(setting.ef ?? 0, fetch * setting.refineFactor));
  return query;
}

const queries = syntheticQueries(queryCount);
const embedder = createLocalEmbedder({ workers });
const vectors = await embedder.embed(queries);
const where = memoryWhere({ scope: { userId: userOf(0) } })!;

const uri = mkdtempSync(join(tmpdir(), 'memoir-bench-lancedb-'));
const indexOption = values.index ? { vector: values.index as VectorKind } : {};
const searchOption = values.search ? { search: values.search as 'memoir' | 'native' } : {};
const store = createLanceStore({ uri, logger: quiet, index: indexOption, ...searchOption });
const writer = createMemory({ store, embedder, logger: quiet });
const retainPerSecond = await ingest(writer);
log(`retained ${whole(size)} at ${whole(retainPerSecond)}/s`);
const indexStarted = performance.now();
await store.optimize({ vectorIndex: true });
const indexSeconds = (performance.now() - indexStarted) / 1000;
log(`indexes built in ${fixed(indexSeconds)} s`);
await writer.close();
const ingestDiskMiB = diskBytes(uri) / 2 ** 20;
// The store's own round (compaction, index fold, cleanup), with every old version removed now
// rather than after keepVersionsMs: the table as it stays.
const maintainer = createLanceStore({
  uri,
  logger: quiet,
  index: { ...indexOption, keepVersionsMs: 0 },
  ...searchOption,
});
await maintainer.optimize();
await maintainer.close();
const diskMiB = diskBytes(uri) / 2 ** 20;
log(`disk ${whole(ingestDiskMiB)} MiB after the ingest, ${whole(diskMiB)} MiB after maintenance`);

// A fresh store's first recall on the maintained table, as a `memoir` command or a server start
// pays it. With search memoir there is no snapshot yet (the ingest never searched): this store
// builds the index from every row, and its close() writes the snapshot the reader below starts from.
const cold = createLanceStore({ uri, logger: quiet, index: indexOption, ...searchOption });
const coldClient = createMemory({ store: cold, embedder, scope: { userId: userOf(0) }, logger: quiet });
const coldStarted = performance.now();
await coldClient.recall(queries[1]!, { k: 10 });
const coldRecallMs = performance.now() - coldStarted;
log(
  `first recall of a fresh store, no snapshot: ${whole(coldRecallMs)} ms (${JSON.stringify(cold.searchIndexStats())})`,
);
await coldClient.close();
const snapshotDiskMiB = diskBytes(uri) / 2 ** 20 - diskMiB;

const reader: LanceStore = createLanceStore({ uri, logger: quiet, index: indexOption, ...searchOption });
const settings = reader.indexSettings;
const searchMode = reader.searchSettings;
const memory = createMemory({ store: reader, embedder, scope: { userId: userOf(0) }, logger: quiet });
const openStarted = performance.now();
await memory.recall(queries[0]!, { k: 10 });
const firstRecallMs = performance.now() - openStarted;
const firstLoad = reader.searchIndexStats();
log(`first recall of the next fresh store ${whole(firstRecallMs)} ms (${JSON.stringify(firstLoad)})`);
const recall = await timed(queryCount, (index) => memory.recall(queries[index]!, { k: 10 }));
await memory.flush();
log(`memoir recall p50 ${fixed(recall.p50, 2)} ms; in-process index ${JSON.stringify(reader.searchIndexStats())}`);

// The floor: one hybrid query, full text and vector fused by LanceDB's RRF, the same prefilter
// (the client's scope, memories valid now) and the store's index settings, ids only.
const db = await lancedb.connect(uri, { readConsistencyInterval: 0 });
const table = await db.openTable('memories');
const rrf = await lancedb.rerankers.RRFReranker.create(60);
const storeSetting: SearchSetting = { nprobes: settings.nprobes, refineFactor: settings.refineFactor, ef: settings.ef };
const hybrid = (index: number) => {
  const validWhere = memoryWhere({ scope: { userId: userOf(0) }, validAt: new Date().toISOString() })!;
  const terms = [...new Set(analyzeTerms(queries[index]!))].join(' ');
  const search = table
    .query()
    .fullTextSearch(new lancedb.MatchQuery(terms, 'lexical_terms', { operator: lancedb.Operator.Or }))
    .nearestTo(vectors[index]!)
    .distanceType('cosine')
    .where(validWhere)
    .select(['id'])
    .limit(CANDIDATES);
  return withSetting(search, settings.vector, storeSetting, CANDIDATES).rerank(rrf).toArray();
};
const floor = await timed(queryCount, hybrid);
log(`raw hybrid p50 ${fixed(floor.p50, 2)} ms`);

// Exact neighbours under the prefilter, once per query: what every setting is scored against.
const exact: Array<Set<string>> = [];
for (const vector of vectors.slice(0, recallQueries)) {
  const rows = (await table
    .vectorSearch(vector)
    .distanceType('cosine')
    .where(where)
    .bypassVectorIndex()
    .select(['id'])
    .limit(RECALL_AT)
    .toArray()) as Array<{ id: string }>;
  exact.push(new Set(rows.map((row) => row.id)));
}

// The store's own vector search (whichever answers it) against the same exact neighbours.
let storeFound = 0;
let storeTotal = 0;
for (let index = 0; index < exact.length; index++) {
  const hits = await reader.searchVector({
    vector: vectors[index]!,
    filter: { scope: { userId: userOf(0) } },
    limit: RECALL_AT,
  });
  storeFound += hits.filter((hit) => exact[index]!.has(hit.id)).length;
  storeTotal += exact[index]!.size;
}
const storeSearchRecall = storeFound / Math.max(1, storeTotal);

interface Tried {
  kind: VectorKind;
  setting: SearchSetting;
  recallAt50: number;
  p50: number;
  store: boolean;
  buildSeconds: number;
}
const triedRows: Tried[] = [];

async function measureSetting(kind: VectorKind, setting: SearchSetting, buildSeconds: number, isStore = false) {
  let found = 0;
  let total = 0;
  const latencies: number[] = [];
  for (let index = 0; index < exact.length; index++) {
    const started = performance.now();
    const search = table
      .vectorSearch(vectors[index]!)
      .distanceType('cosine')
      .where(where)
      .select(['id'])
      .limit(RECALL_AT);
    const rows = (await withSetting(search, kind, setting, RECALL_AT).toArray()) as Array<{ id: string }>;
    latencies.push(performance.now() - started);
    found += rows.filter((row) => exact[index]!.has(row.id)).length;
    total += exact[index]!.size;
  }
  triedRows.push({
    kind,
    setting,
    recallAt50: found / Math.max(1, total),
    p50: percentiles(latencies).p50,
    store: isStore,
    buildSeconds,
  });
}

const grid = (kind: VectorKind): SearchSetting[] =>
  kind.startsWith('ivf-hnsw')
    ? [100, 200, 400].flatMap((ef) => [1, 4].map((refineFactor) => ({ nprobes: settings.nprobes, refineFactor, ef })))
    : [10, 20, 50, 100].flatMap((nprobes) =>
        (kind === 'ivf-pq' ? [4, 10] : [1, 4]).map((refineFactor) => ({ nprobes, refineFactor })),
      );

await measureSetting(settings.vector, storeSetting, indexSeconds, true);
for (const setting of grid(settings.vector)) await measureSetting(settings.vector, setting, indexSeconds);
const dimensions = embedder.dimensions;
const libraries = { lancedb, arrow };
for (const kind of tried) {
  const started = performance.now();
  const writable = await db.openTable('memories');
  await buildVectorIndex(libraries as never, writable, { ...settings, vector: kind }, dimensions);
  const buildSeconds = (performance.now() - started) / 1000;
  log(`built ${kind} in ${fixed(buildSeconds)} s`);
  await table.checkoutLatest();
  for (const setting of grid(kind)) await measureSetting(kind, setting, buildSeconds);
}
await memory.close();
db.close();
const peakRssMiB = process.resourceUsage().maxRSS / 1024;
rmSync(uri, { recursive: true, force: true });

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const storeRecall = storeSearchRecall;
const ratio = recall.p50 / floor.p50;
const million = size / 1_000_000;
const goal = (met: boolean) => (met ? 'met' : 'NOT met');
const describe = (row: Tried) =>
  row.kind.startsWith('ivf-hnsw')
    ? `ef ${row.setting.ef}, refine ×${row.setting.refineFactor}`
    : `nprobes ${row.setting.nprobes}, refine ×${row.setting.refineFactor}`;
const lines = [
  `memoir bench:scale:lancedb — ${new Date().toISOString().slice(0, 10)} — ${machine}; load average at the end ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
  `local embedder (${dimensions} dimensions, ${workers} workers), retain in batches of ${BATCH.toLocaleString('en-US')}, ${users} users (scope = one user, ${fixed(100 / users, 0)} % of rows), ${queryCount} recall queries at k=10 (${CANDIDATES} candidates per list); search ${searchMode}; vector index ${settings.vector}`,
  '',
  '| memories | search | retain/s | index build s | disk after ingest / after maintenance MiB | disk per 1M MiB | index snapshot MiB | peak RSS MiB | first recall ms: no snapshot / next process | memoir recall p50 / p95 ms | raw hybrid p50 / p95 ms | p50 ratio | store vector recall@50 |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  `| ${whole(size)} | ${searchMode} | ${whole(retainPerSecond)} | ${fixed(indexSeconds)} | ${whole(ingestDiskMiB)} / ${whole(diskMiB)} | ${whole(diskMiB / million)} | ${whole(snapshotDiskMiB)} | ${whole(peakRssMiB)} | ${whole(coldRecallMs)} / ${whole(firstRecallMs)} | ${fixed(recall.p50, 2)} / ${fixed(recall.p95, 2)} | ${fixed(floor.p50, 2)} / ${fixed(floor.p95, 2)} | ${fixed(ratio, 2)} | ${fixed(storeRecall, 3)} |`,
  '',
  `vector settings tried (recall@50 against exact search under the ${fixed(100 / users, 0)} % scope prefilter, ${exact.length} queries; p50 of the raw vector query):`,
  '',
  '| index | build s | search setting | recall@50 | vector p50 ms |',
  '|---|---:|---|---:|---:|',
  ...triedRows.map(
    (row) =>
      `| ${row.kind}${row.store ? ' (store)' : ''} | ${fixed(row.buildSeconds)} | ${describe(row)} | ${fixed(row.recallAt50, 3)} | ${fixed(row.p50, 2)} |`,
  ),
  '',
  'raw hybrid = one LanceDB query (full text + vector, RRF) with the same prefilter and index settings, ids only; p50 ratio = memoir p50 / raw hybrid p50; peak RSS is the whole bench process; first recall = of a fresh store on the maintained table: the first one, then the next one (with search memoir, from the index snapshot the first left); index snapshot = disk it added (memoir only).',
  size >= 1_000_000
    ? `goals at 1M: recall p50 <= 20 ms ${goal(recall.p50 <= 20)}; p95 <= 40 ms ${goal(recall.p95 <= 40)}; recall@50 >= 0.95 ${goal(storeRecall >= 0.95)}; <= 1.3x raw hybrid ${goal(ratio <= 1.3)}; disk <= 2 GB ${goal(diskMiB <= 2048)}; RSS <= 2 GB ${goal(peakRssMiB <= 2048)}; ingest >= 20,000/s ${goal(retainPerSecond >= 20_000)}`
    : `goals at 100k (issue 42): recall p50 <= 10 ms ${goal(recall.p50 <= 10)}; disk after maintenance <= 150 MiB ${goal(diskMiB <= 150)}; retain >= 8,000/s ${goal(retainPerSecond >= 8000)}; recall@50 >= 0.95 ${goal(storeRecall >= 0.95)}`,
];
console.log(lines.join('\n'));
if (values.json) {
  const row = {
    size,
    search: searchMode,
    retainPerSecond,
    indexSeconds,
    ingestDiskMiB,
    diskMiB,
    snapshotDiskMiB,
    peakRssMiB,
    coldRecallMs,
    firstRecallMs,
    firstLoad,
    recall,
    floor,
    ratio,
    storeRecall,
  };
  writeFileSync(values.json, `${JSON.stringify({ machine, row, tried: triedRows }, null, 2)}\n`);
}
