// npm run bench:guard [-- --record --why "<reason>"]
//
// A speed guard of about 35 s for CI: retain and recall of the SQLite and in-memory stores at
// 20,000 memories, and recall over 1,000 (the fixed cost of a call), each as a ratio to a
// baseline measured in the same run, against the ratios recorded in bench/guard-baseline.json.
// It exits 1 when any ratio is more than 1.5× worse than its record. The machine is shared, so
// memoir and its baseline are interleaved (a batch or a round of each in turn, so a burst of
// load slows both) and each ratio is the median over batches or rounds.
//
// Baselines (all in this run, on these rows and queries; see bench/scale-measures.ts):
// - retain: the same batch of rows inserted raw into the schema-5 SQLite tables (FTS5 by
//   trigger, vec0), right after memoir retained it — ratio = baseline ms / memoir ms (a rate
//   ratio, higher is better); the in-memory store is held to the same baseline.
// - recall at 20k: the old design's two raw queries (FTS5 bm25, vec0 KNN) on that baseline
//   file — ratio = memoir p50 / baseline p50 (lower is better), for both stores.
// - recall at 1,000: a plain in-process hybrid search written in the bench (bench/plain-search.ts:
//   embed, BM25 over postings, cosine scan, fusion) over the same memories — ratio = memoir p50 /
//   plain p50. memoir's p50 there is printed beside the issue's goal of 2 ms.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '../src/adapters/sqlite/index.js';
import { createInMemoryStore, createMemory, type MemoryClient, type MemoryInput } from '../src/index.js';
import {
  ALLOWED_FACTOR,
  formatVerdicts,
  judgeRatios,
  type MeasuredRatio,
  type RecordedRatios,
} from './guard-verdict.js';
import { percentiles } from './latency.js';
import { createPlainSearch } from './plain-search.js';
import {
  type BaselineWriter,
  inBatches,
  machineDescription,
  openBaselineSearch,
  openBaselineWriter,
  recallLatencies,
  warmRecall,
} from './scale-measures.js';
import { generateMemories, syntheticMemories, syntheticQueries } from './synthetic-memories.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '20000' },
    small: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    queries: { type: 'string', default: '40' },
    recorded: { type: 'string', default: new URL('./guard-baseline.json', import.meta.url).pathname },
    record: { type: 'boolean', default: false },
    why: { type: 'string' },
  },
});
const size = Number(values.size);
const smallSize = Number(values.small);
const rounds = Number(values.rounds);
const perRound = Number(values.queries);
const SMALL_GOAL_MS = 2;
if (values.record && !values.why) throw new Error('--record needs --why "<why the recorded ratios change>"');

const quiet = { log: () => {} };
const median = (list: number[]) => percentiles(list).p50;
const sum = (list: number[]) => list.reduce((total, value) => total + value, 0);
const started = performance.now();
const home = mkdtempSync(join(tmpdir(), 'memoir-guard-'));

// Retain at `size`: each batch goes to the in-memory store, then the SQLite store, then raw
// into the baseline file, so the three see the same load; memoir's time includes the
// background work the batch queued.
const inMemory = createMemory({ store: createInMemoryStore(), logger: quiet });
const sqlitePath = join(home, 'memoir.sqlite');
const sqlite = createMemory({ store: createSqliteStore({ path: sqlitePath, logger: quiet }), logger: quiet });
const retainRatios = { sqlite: [] as number[], inMemory: [] as number[] };
const retainMs = { sqlite: 0, inMemory: 0, baseline: 0 };
let writer: BaselineWriter | undefined;
for (const batch of inBatches(generateMemories(size))) {
  const inMemoryMs = await retainSettled(inMemory, batch);
  const sqliteMs = await retainSettled(sqlite, batch);
  writer ??= openBaselineWriter(sqlitePath, join(home, 'baseline.sqlite'), sqlite.embedder.dimensions);
  const baselineMs = sum(writer.copyNewRows());
  retainRatios.inMemory.push(baselineMs / inMemoryMs);
  retainRatios.sqlite.push(baselineMs / sqliteMs);
  retainMs.inMemory += inMemoryMs;
  retainMs.sqlite += sqliteMs;
  retainMs.baseline += baselineMs;
}
const copied = writer?.count ?? 0;
writer?.close();
if (copied !== size) throw new Error(`the baseline copied ${copied} rows of ${size}: it missed some of memoir's rows`);

// Recall at `size`: each round asks new queries; each query goes to the SQLite store, then to
// the baseline's raw queries, then to the in-memory store, so a burst of load slows all three.
const queries = syntheticQueries(rounds * perRound + 11);
const warm = queries.slice(rounds * perRound);
const search = await openBaselineSearch(join(home, 'baseline.sqlite'), queries);
await warmRecall(sqlite, warm);
await warmRecall(inMemory, warm);
await Promise.all([sqlite.flush(), inMemory.flush()]);
const recallRatios = { sqlite: [] as number[], inMemory: [] as number[] };
const recallP50s = { sqlite: [] as number[], inMemory: [] as number[], baseline: [] as number[] };
for (let round = 0; round < rounds; round++) {
  const times = { sqlite: [] as number[], inMemory: [] as number[], baseline: [] as number[] };
  for (let index = round * perRound; index < (round + 1) * perRound; index++) {
    times.sqlite.push(await recallSettled(sqlite, queries[index]!));
    times.baseline.push(...search.latencies(index, index + 1));
    times.inMemory.push(await recallSettled(inMemory, queries[index]!));
  }
  const [sqliteP50, baselineP50, inMemoryP50] = [times.sqlite, times.baseline, times.inMemory].map(median) as [
    number,
    number,
    number,
  ];
  recallRatios.sqlite.push(sqliteP50 / baselineP50);
  recallRatios.inMemory.push(inMemoryP50 / baselineP50);
  recallP50s.sqlite.push(sqliteP50);
  recallP50s.inMemory.push(inMemoryP50);
  recallP50s.baseline.push(baselineP50);
}
search.close();
await closeAll(sqlite, inMemory);

// Recall at `smallSize`: a fresh SQLite store of that many memories beside the plain search,
// query by query in turn.
const smallMemories = syntheticMemories(smallSize, 11);
const small = createMemory({
  store: createSqliteStore({ path: join(home, 'small.sqlite'), logger: quiet }),
  logger: quiet,
});
for (const batch of inBatches(smallMemories)) await small.retain(batch);
const plain = await createPlainSearch(smallMemories.map((memory) => memory.content));
const smallQueries = syntheticQueries(rounds * perRound + 11, 13);
await warmRecall(small, smallQueries.slice(rounds * perRound));
await small.flush();
for (const query of smallQueries.slice(rounds * perRound)) await plain.search(query, 10);
const smallRatios: number[] = [];
const smallP50s = { memoir: [] as number[], plain: [] as number[] };
for (let round = 0; round < rounds; round++) {
  const times = { memoir: [] as number[], plain: [] as number[] };
  for (const query of smallQueries.slice(round * perRound, (round + 1) * perRound)) {
    times.memoir.push(await recallSettled(small, query));
    const before = performance.now();
    await plain.search(query, 10);
    times.plain.push(performance.now() - before);
  }
  const [memoirP50, plainP50] = [median(times.memoir), median(times.plain)];
  smallRatios.push(memoirP50 / plainP50);
  smallP50s.memoir.push(memoirP50);
  smallP50s.plain.push(plainP50);
}
await closeAll(small);
rmSync(home, { recursive: true, force: true });

// A retain's milliseconds with the background work it queued: work moved off the call is
// still work of the retain.
async function retainSettled(memory: MemoryClient, batch: MemoryInput[]) {
  const before = performance.now();
  await memory.retain(batch);
  await memory.flush();
  return performance.now() - before;
}

// A recall's milliseconds as its caller waits for them (what the goals are about); the
// bookkeeping it queued (access counts) is then let finish untimed, so that it is not charged
// to whatever is timed next — the baseline's query awaits nothing, but the plain search does.
async function recallSettled(memory: MemoryClient, query: string) {
  const [ms] = await recallLatencies(memory, [query]);
  await memory.flush();
  return ms!;
}

async function closeAll(...clients: MemoryClient[]) {
  for (const client of clients) {
    await client.flush();
    await client.close();
  }
}

const sizeLabel = size.toLocaleString('en-US');
const smallLabel = smallSize.toLocaleString('en-US');
const measured: MeasuredRatio[] = [
  { name: `sqlite retain at ${sizeLabel} (÷ raw inserts)`, ratio: median(retainRatios.sqlite), better: 'higher' },
  { name: `in-memory retain at ${sizeLabel} (÷ raw inserts)`, ratio: median(retainRatios.inMemory), better: 'higher' },
  { name: `sqlite recall p50 at ${sizeLabel} (÷ raw queries)`, ratio: median(recallRatios.sqlite), better: 'lower' },
  {
    name: `in-memory recall p50 at ${sizeLabel} (÷ raw queries)`,
    ratio: median(recallRatios.inMemory),
    better: 'lower',
  },
  { name: `sqlite recall p50 at ${smallLabel} (÷ plain search)`, ratio: median(smallRatios), better: 'lower' },
];
const spread = (list: number[]) => `${Math.min(...list).toFixed(3)}–${Math.max(...list).toFixed(3)}`;
const perSecond = (ms: number) => Math.round(size / (ms / 1000)).toLocaleString('en-US');
const smallP50 = median(smallP50s.memoir);
const machine = machineDescription();
const today = new Date().toISOString().slice(0, 10);

if (values.record) {
  const record: RecordedRatios = {
    recordedAt: today,
    machine,
    why: values.why!,
    ratios: Object.fromEntries(measured.map(({ name, ratio }) => [name, Number(ratio.toFixed(4))])),
  };
  writeFileSync(values.recorded, `${JSON.stringify(record, null, 2)}\n`);
}
const recorded = JSON.parse(readFileSync(values.recorded, 'utf8')) as RecordedRatios;
const { verdicts, exitCode } = judgeRatios(measured, recorded.ratios);

console.log(
  [
    `memoir bench:guard — ${today} — ${machine}`,
    `${sizeLabel} memories (retain in batches of 1,000: median of ${retainRatios.sqlite.length} per-batch ratios), recall k=10: median of ${rounds} rounds of ${perRound} queries`,
    `ratios recorded ${recorded.recordedAt} on ${recorded.machine}; why: ${recorded.why}`,
    '',
    formatVerdicts(verdicts),
    '',
    `retain/s: sqlite ${perSecond(retainMs.sqlite)}, in-memory ${perSecond(retainMs.inMemory)}, raw inserts ${perSecond(retainMs.baseline)}; per-batch ratios sqlite ${spread(retainRatios.sqlite)}, in-memory ${spread(retainRatios.inMemory)}`,
    `recall p50 ms at ${sizeLabel}: sqlite ${median(recallP50s.sqlite).toFixed(2)}, in-memory ${median(recallP50s.inMemory).toFixed(2)}, raw queries ${median(recallP50s.baseline).toFixed(2)}; per-round ratios sqlite ${spread(recallRatios.sqlite)}, in-memory ${spread(recallRatios.inMemory)}`,
    `recall p50 ms at ${smallLabel} (the fixed cost of a call): sqlite ${smallP50.toFixed(2)} (goal ≤ ${SMALL_GOAL_MS} ms: ${smallP50 <= SMALL_GOAL_MS ? 'met' : 'not met'}), plain search ${median(smallP50s.plain).toFixed(2)}; per-round ratios ${spread(smallRatios)}`,
    `wall ${((performance.now() - started) / 1000).toFixed(1)} s; verdict: ${exitCode === 0 ? 'pass' : `FAIL — a ratio is more than ${ALLOWED_FACTOR}× worse than recorded, or unguarded (see CONTRIBUTING.md, "Speed guard")`}`,
  ].join('\n'),
);
process.exitCode = exitCode;
