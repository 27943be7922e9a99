// npm run bench:locomo -- --data path/to/locomo10.json [--store memory|sqlite]
//   (the data: data/locomo10.json of github.com/snap-research/LoCoMo, CC BY-NC 4.0; not shipped)
//   [--embedder local|openai] [--k 5,10,25,50] [--json out.json] [--explain <question-index>]
//   [--ranking '{"vectorWeight":0}'] [--context-window 2]  (createMemory's ranking options and
//   retain's contextWindow, for exploring; the defaults are what the README reports)
//   [--floor 0]  the relevance floor (ranking.minVectorSimilarity); 0 turns it off, so every
//   question gets a full top 50. Default: the library's default for the embedder.
//
// Turn-level recall@k on LoCoMo-format conversation sets, through memoir's public API only:
// one memory per turn, one scope per conversation, every question asked as written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createInMemoryStore,
  createMemory,
  type Embedder,
  type MemoryInput,
  type RankingOptions,
} from '../src/index.js';
import { readConversations, type Turn } from './locomo-data.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    store: { type: 'string', default: 'sqlite' },
    embedder: { type: 'string', default: 'local' },
    k: { type: 'string', default: '5,10,25,50' },
    json: { type: 'string' },
    explain: { type: 'string' },
    ranking: { type: 'string' },
    'context-window': { type: 'string', default: '2' },
    floor: { type: 'string' },
  },
});
if (!values.data) {
  console.error(
    'usage: npm run bench:locomo -- --data <file> [--store memory|sqlite] [--k 5,10,25,50] [--json out.json]',
  );
  process.exit(2);
}
const ks = values.k.split(',').map(Number);
const maxK = Math.max(...ks);

async function chooseEmbedder(): Promise<Embedder | undefined> {
  if (values.embedder === 'local') return undefined;
  if (values.embedder === 'openai') {
    // The OpenAI adapter lands with the LLM pipelines issue; until then this path says so.
    const specifier = '../src/adapters/openai/index.js';
    const module = (await import(specifier).catch(() => null)) as {
      createOpenAIEmbedder?: () => Embedder;
    } | null;
    if (!module?.createOpenAIEmbedder) throw new Error('--embedder openai needs memoir/openai, which is not built yet');
    return module.createOpenAIEmbedder();
  }
  throw new Error(`unknown --embedder ${values.embedder}`);
}

function turnInput(turn: Turn): MemoryInput {
  const caption = turn.caption ? ` [shares a photo: ${turn.caption}]` : '';
  return {
    content: `${turn.speaker}: ${turn.text}${caption}`,
    kind: 'world',
    category: 'events',
    entities: [turn.speaker],
    scope: { namespace: turn.sampleId },
    sessionId: `${turn.sampleId}/${turn.sessionKey}`,
    source: { messageId: turn.diaId },
    ...(turn.occurredAt ? { occurredAt: turn.occurredAt } : {}),
  };
}

const raw: unknown = JSON.parse(readFileSync(values.data, 'utf8'));
const { turns, questions, quirks } = readConversations(raw);
const embedder = await chooseEmbedder();
const home = mkdtempSync(join(tmpdir(), 'memoir-locomo-'));
const memory = createMemory({
  ...(values.store === 'memory' ? { store: createInMemoryStore() } : { home }),
  ...(embedder ? { embedder } : {}),
  ranking: {
    ...(values.ranking ? (JSON.parse(values.ranking) as RankingOptions) : {}),
    ...(values.floor !== undefined ? { minVectorSimilarity: Number(values.floor) } : {}),
  },
  logger: { log: () => {} },
});

const ingestStarted = performance.now();
const bySample = new Map<string, Turn[]>();
for (const turn of turns) bySample.set(turn.sampleId, [...(bySample.get(turn.sampleId) ?? []), turn]);
for (const sampleTurns of bySample.values()) {
  for (let start = 0; start < sampleTurns.length; start += 1000) {
    // Each session's turns go in one call, so each turn is indexed with the turns around it.
    await memory.retain(sampleTurns.slice(start, start + 1000).map(turnInput), {
      onDuplicate: 'keep',
      contextWindow: Number(values['context-window']),
    });
  }
}
const ingestSeconds = (performance.now() - ingestStarted) / 1000;

interface Score {
  category: number;
  recall: number[];
}
const scores: Score[] = [];
const latencies: number[] = [];
let tokensAt10 = 0;
// Questions that got fewer than the largest k results: the relevance floor left nothing else matching.
let shortLists = 0;
for (const [position, question] of questions.entries()) {
  const started = performance.now();
  const explain = values.explain !== undefined && Number(values.explain) === position;
  const response = await memory.recall(question.question, {
    scope: { namespace: question.sampleId },
    k: maxK,
    explain,
  });
  latencies.push(performance.now() - started);
  if (response.results.length < maxK) shortLists++;
  const found = response.results.map((result) => result.memory.source?.messageId ?? '');
  const evidence = new Set(question.evidence);
  scores.push({
    category: question.category,
    recall: ks.map((k) => found.slice(0, k).filter((id) => evidence.has(id)).length / evidence.size),
  });
  const top10 = await memory.recall(question.question, {
    scope: { namespace: question.sampleId },
    k: 10,
    tokenBudget: 1_000_000,
  });
  tokensAt10 += top10.totalTokens ?? 0;
  if (explain) {
    console.log(`\nexplain #${position}: ${question.question} (evidence ${question.evidence.join(', ')})`);
    for (const [rank, result] of response.results.slice(0, 10).entries()) {
      const mark = evidence.has(result.memory.source?.messageId ?? '') ? '*' : ' ';
      console.log(
        `${mark} ${rank + 1}. ${result.memory.source?.messageId} ${result.score.toFixed(3)} ${result.memory.content.slice(0, 90)}`,
      );
      console.log(`     ${result.explanation}`);
    }
  }
}
await memory.close();
rmSync(home, { recursive: true, force: true });

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const row = (subset: Score[]) => ks.map((_, i) => (100 * mean(subset.map((score) => score.recall[i]!))).toFixed(1));
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const header = `| retriever | ${ks.map((k) => `R@${k}`).join(' | ')} |`;
const lines = [
  `memoir bench:locomo — ${new Date().toISOString().slice(0, 10)} — ${machine}`,
  `${turns.length} turns, ${questions.length} questions scored; store ${values.store}, embedder ${memory.embedder.id}, relevance floor ${values.floor ?? 'default'} (${shortLists} questions got fewer than ${maxK} results)`,
  `skipped or repaired: ${Object.entries(quirks)
    .map(([key, count]) => `${key} ${count}`)
    .join(', ')}`,
  '',
  header,
  `|---|${ks.map(() => '---:').join('|')}|`,
  '| DRAGON (LoCoMo paper) | 56.7 | 66.2 | 76.7 | 82.7 |',
  '| BM25 (turn text) | 52.3 | 59.0 | 66.9 | 71.8 |',
  `| **memoir** | ${row(scores).join(' | ')} |`,
  '',
  `| category | questions | ${ks.map((k) => `R@${k}`).join(' | ')} |`,
  `|---|---:|${ks.map(() => '---:').join('|')}|`,
  ...[1, 2, 3, 4, 5].map((category) => {
    const subset = scores.filter((score) => score.category === category);
    return `| ${category} ${CATEGORY_NAMES[category]} | ${subset.length} | ${row(subset).join(' | ')} |`;
  }),
  '',
  `ingest ${ingestSeconds.toFixed(1)} s (${Math.round(turns.length / ingestSeconds)} turns/s); recall p50 ${p(0.5).toFixed(1)} ms, p95 ${p(0.95).toFixed(1)} ms; mean tokens returned at k=10: ${Math.round(tokensAt10 / questions.length)}`,
];
console.log(lines.join('\n'));
if (values.json) {
  writeFileSync(
    values.json,
    `${JSON.stringify({ machine, ks, overall: row(scores), quirks, ingestSeconds, p50: p(0.5), p95: p(0.95) }, null, 2)}\n`,
  );
}
