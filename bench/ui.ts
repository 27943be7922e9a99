// `npm run bench:ui`: the web view's pages at 100,000 memories in a SQLite home. Each page is
// fetched over real HTTP (with the view's cookie) and timed end to end — the client calls, the
// rendering, the socket — beside the raw client call it wraps, timed the same way in the same
// run, so the table shows what the view adds. Medians, since these machines are shared.
//
//   npm run bench:ui [-- --count 100000 --runs 15]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '../src/adapters/sqlite/index.js';
import { createMemory, type MemoryInput } from '../src/index.js';
import { serveUi } from '../src/integrations/ui/index.js';
import { percentiles } from './latency.js';
import { generateMemories } from './synthetic-memories.js';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '100000' }, runs: { type: 'string', default: '15' } },
});
const COUNT = Number(values.count);
const RUNS = Number(values.runs);
const BUDGET_MS = 200;
const TOKEN = 'bench-ui-token-0123456789abcdef';

const home = mkdtempSync(join(tmpdir(), 'memoir-bench-ui-'));
const quiet = { log() {} };
const memory = createMemory({
  store: createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet }),
  home,
  logger: quiet,
});

async function seed() {
  const started = performance.now();
  let batch: MemoryInput[] = [];
  let index = 0;
  for (const input of generateMemories(COUNT)) {
    // One in a hundred is an opinion, so the Opinions page has a list to page through.
    batch.push(index++ % 100 === 0 ? { ...input, kind: 'opinion', metadata: { confidence: 0.6 } } : input);
    if (batch.length === 1000) {
      await memory.retain(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await memory.retain(batch);
  await memory.flush();
  return (performance.now() - started) / 1000;
}

async function median(work: () => Promise<unknown>) {
  await work(); // warm statements and caches
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

const seconds = await seed();
const total = await memory.count();
const ui = await serveUi({ client: memory, token: TOKEN });
const cookie = `memoir_ui_${ui.port}=${TOKEN}`;
const [one] = await memory.list({ limit: 1 });
const [opinion] = await memory.list({ kinds: ['opinion'], limit: 1 });
const entity = one!.entities[0]!;

async function page(path: string, retried = false): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${ui.origin}${path}`, { headers: { cookie } });
  } catch (error) {
    // A kept-alive connection the server closed while a slow baseline ran: fetch once more.
    if (retried) throw error;
    return page(path, true);
  }
  if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
  await response.text();
}

// The last page of the list, as the view reaches it: keyset on occurredAt (its "Older →" links).
const [deepStart] = await memory.list({ orderBy: 'occurredAt', limit: 1, offset: Math.max(0, total - 50) });
const before = deepStart!.occurredAt;
const rows: Array<[string, string, () => Promise<unknown>, () => Promise<unknown>]> = [
  [
    '/memories',
    "list({ orderBy: 'occurredAt', limit: 51 })",
    () => page('/memories'),
    () => memory.list({ orderBy: 'occurredAt', limit: 51 }),
  ],
  [
    '/memories?before=… (last page)',
    "list({ orderBy: 'occurredAt', until, limit: 51 })",
    () => page(`/memories?before=${encodeURIComponent(before)}`),
    () => memory.list({ orderBy: 'occurredAt', until: before, limit: 51 }),
  ],
  [
    '/memories?kind=experience',
    "list({ kinds: ['experience'], orderBy: 'occurredAt', limit: 51 })",
    () => page('/memories?kind=experience'),
    () => memory.list({ kinds: ['experience'], orderBy: 'occurredAt', limit: 51 }),
  ],
  [
    '/search?q=…',
    'recall(q, { k: 10, explain })',
    () => page(`/search?q=${encodeURIComponent(`${entity} release`)}`),
    () => memory.recall(`${entity} release`, { k: 10, explain: true }),
  ],
  [
    '/memory/:id',
    'get(id) + history(id)',
    () => page(`/memory/${one!.id}`),
    async () => [await memory.get(one!.id), await memory.history(one!.id)],
  ],
  ['/sessions', 'listSessions({ limit: 26 })', () => page('/sessions'), () => memory.listSessions({ limit: 26 })],
  ['/entities', 'listEntities({ limit: 51 })', () => page('/entities'), () => memory.listEntities({ limit: 51 })],
  [
    `/entity/${entity}`,
    `list({ entities: [${entity}], limit: 51 })`,
    () => page(`/entity/${encodeURIComponent(entity)}`),
    () => memory.list({ entities: [entity], includeInvalid: false, limit: 51 }),
  ],
  [
    '/opinions',
    "list({ kinds: ['opinion'], limit: 51 })",
    () => page('/opinions'),
    () => memory.list({ kinds: ['opinion'], includeInvalid: false, limit: 51 }),
  ],
  [
    '/opinion/:id',
    'get(id) + history(id)',
    () => page(`/opinion/${opinion!.id}`),
    async () => [await memory.get(opinion!.id), await memory.history(opinion!.id)],
  ],
  ['/procedures', 'procedures.list()', () => page('/procedures'), () => memory.procedures.list()],
  ['/recordings', 'procedures.list()', () => page('/recordings'), () => memory.procedures.list()],
  // Health answers from counts made in the background (refreshed after a minute); the baseline is one count.
  ['/health', 'count()', () => page('/health'), () => memory.count()],
];

console.log(
  `memoir bench:ui — ${total} memories in SQLite (seeded in ${seconds.toFixed(0)} s), ${RUNS} runs per row, Node ${process.version}\n`,
);
console.log('| page | median ms | p95 ms | under 200 ms | baseline (client call) | median ms |');
console.log('|---|---:|---:|---|---|---:|');
let over = 0;
for (const [path, baseline, view, raw] of rows) {
  const page = await median(view);
  const call = await median(raw);
  if (page.p50 >= BUDGET_MS) over++;
  console.log(
    `| \`${path}\` | ${page.p50.toFixed(1)} | ${page.p95.toFixed(1)} | ${page.p50 < BUDGET_MS ? 'yes' : '**no**'} | \`${baseline}\` | ${call.p50.toFixed(1)} |`,
  );
}
await ui.close();
await memory.close();
rmSync(home, { recursive: true, force: true });
if (over > 0) {
  console.error(`\n${over} page(s) over ${BUDGET_MS} ms`);
  process.exitCode = 1;
}
