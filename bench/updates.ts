// npm run bench:updates [-- --store memory|sqlite] [--set dev|test|public|all] [--locomo <locomo10.json>]
//                         [--failures] [--json out.json]
//
// Current truth: facts that change (homes, jobs, rents, tools, schedules…), retained through
// memoir's public API, then asked about now and about the past. Three sets: `test`, written
// before the parser by someone who had seen neither it nor the dev set (frozen in its own
// commit); `dev`, the half the parser was tuned on; `public`, the first small set. Each case runs
// twice in the same process: with supersession (the default) and with it off
// (`corrections: 'marked'`). Link precision counts the supersession links that join two versions
// of one slot among all links made. With --locomo (default ../shared/data/locomo10.json when
// present) it also reports LoCoMo recall with supersession on and off.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSentenceEncoderEmbedder } from '../src/adapters/sentence-encoder/index.js';
import { createInMemoryStore, createMemory, type MemoryClient } from '../src/index.js';
import { cachedEmbedder } from './cached-embedder.js';
import { readConversations } from './locomo-data.js';
import { indexTurns, meanRecall, scoreQuestions } from './locomo-eval.js';
import type { UpdateCase } from './updates/case-types.js';
import { DISTRACTORS } from './updates/update-cases.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    set: { type: 'string', default: 'all' },
    locomo: { type: 'string' },
    json: { type: 'string' },
    failures: { type: 'boolean', default: false },
    embedder: { type: 'string', default: 'local' },
  },
});
if (values.embedder !== 'local' && values.embedder !== 'use') throw new Error('--embedder expects local or use');
// One sentence encoder for every case (its workers and each text's vector are reused).
const embedder = values.embedder === 'use' ? cachedEmbedder(createSentenceEncoderEmbedder()) : undefined;
type Mode = 'parser' | 'off';
const MODES: Mode[] = ['parser', 'off'];
const LOADERS: Record<string, () => Promise<UpdateCase[]>> = {
  test: async () => (await import('./updates/test-cases.js')).CASES,
  dev: async () => (await import('./updates/dev-cases.js')).CASES,
  public: async () => (await import('./updates/update-cases.js')).UPDATE_CASES,
};
const chosen = values.set === 'all' ? Object.keys(LOADERS) : values.set!.split(',');
const SETS: Record<string, UpdateCase[]> = {};
for (const set of chosen) SETS[set] = await LOADERS[set]!();

interface Outcome {
  set: string;
  kind: string;
  past: boolean;
  mode: Mode;
  hit: boolean;
}
interface Link {
  set: string;
  right: boolean;
  older: string;
  newer: string;
}

function client(home: string): MemoryClient {
  return createMemory({
    ...(values.store === 'memory' ? { store: createInMemoryStore() } : { home }),
    ...(embedder ? { embedder } : {}),
    logger: { log: () => {} },
  });
}

const failures: string[] = [];

/** Ask the case's questions after retaining its facts; one outcome per question, and the links made. */
async function runCase(set: string, item: UpdateCase, mode: Mode): Promise<{ outcomes: Outcome[]; links: Link[] }> {
  const home = mkdtempSync(join(tmpdir(), 'memoir-updates-'));
  const memory = client(home);
  const corrections = mode === 'off' ? { corrections: 'marked' as const } : {};
  try {
    const distractors = await memory.retain(
      DISTRACTORS.map((content, index) => ({ content, occurredAt: `2020-0${1 + (index % 9)}-15` })),
      corrections,
    );
    const ids = new Map<string, string>();
    const factOf = new Map<string, string>();
    const byId = new Map(item.facts.map((fact) => [fact.id, fact]));
    for (const id of item.order ?? item.facts.map((fact) => fact.id)) {
      const fact = byId.get(id)!;
      const result = await memory.retain(
        { content: fact.text, occurredAt: fact.date, ...(fact.entities ? { entities: fact.entities } : {}) },
        corrections,
      );
      ids.set(fact.id, result.ids[0]!);
      factOf.set(result.ids[0]!, fact.id);
    }
    // An encoder that embeds in the background is done before the questions are asked.
    await memory.flush();
    const links: Link[] = [];
    for (const stored of [...distractors.ids, ...ids.values()]) {
      const got = await memory.get(stored);
      if (!got?.supersededBy) continue;
      const older = byId.get(factOf.get(stored) ?? '');
      const newer = byId.get(factOf.get(got.supersededBy) ?? '');
      const right = older?.slot !== undefined && older.slot === newer?.slot;
      links.push({ set, right, older: older?.text ?? got.content, newer: newer?.text ?? got.supersededBy });
    }
    const outcomes: Outcome[] = [];
    for (const question of item.questions) {
      const response = await memory.recall(question.query, {
        k: 10,
        ...(question.asOf ? { asOf: question.asOf } : {}),
      });
      const ranked = response.results.map((result) => result.memory.id);
      const answer = ranked.indexOf(ids.get(question.answer)!);
      const stale = ranked.indexOf(ids.get(question.stale)!);
      const hit = answer >= 0 && answer < 3 && (stale < 0 || answer < stale);
      outcomes.push({ set, kind: item.kind, past: question.past === true, mode, hit });
      if (!hit && mode === 'parser' && values.failures) {
        const top = response.results.slice(0, 3).map((result) => factOf.get(result.memory.id) ?? 'd');
        failures.push(
          `[${set}/${item.kind}] ${question.query}${question.asOf ? ` (asOf ${question.asOf})` : ''} → want ${question.answer}, got ${top.join(',')}\n` +
            item.facts.map((fact) => `    ${fact.id} ${fact.date} ${fact.text}`).join('\n') +
            `\n    links: ${links.map((link) => `${link.right ? '' : 'WRONG '}${link.older.slice(0, 30)} → ${link.newer.slice(0, 30)}`).join(' | ') || 'none'}`,
        );
      }
    }
    return { outcomes, links: mode === 'parser' ? links : [] };
  } finally {
    await memory.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const outcomes: Outcome[] = [];
const links: Link[] = [];
for (const set of chosen)
  for (const mode of MODES)
    for (const item of SETS[set]!) {
      const ran = await runCase(set, item, mode);
      outcomes.push(...ran.outcomes);
      links.push(...ran.links);
    }

const percent = (hits: number, all: number) => (all === 0 ? '–' : `${((100 * hits) / all).toFixed(0)} %`);
const rate = (subset: Outcome[]) => percent(subset.filter((o) => o.hit).length, subset.length);
const pick = (set: string, kind: string | undefined, past: boolean, mode: Mode) =>
  outcomes.filter(
    (o) => o.set === set && (kind === undefined || o.kind === kind) && o.past === past && o.mode === mode,
  );
const precision = (set: string) => {
  const made = links.filter((link) => link.set === set);
  return made.length === 0
    ? '–'
    : `${percent(made.filter((link) => link.right).length, made.length)} (${made.filter((link) => link.right).length}/${made.length})`;
};
const lines = [
  `memoir bench:updates — ${new Date().toISOString().slice(0, 10)} — ${machine}`,
  `store ${values.store}, offline (no model); each beside the same run with supersession off`,
  '',
  '| set | cases | current first | (off) | past questions | (off) | link precision |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...chosen.map(
    (set) =>
      `| ${set} | ${SETS[set]!.length} | **${rate(pick(set, undefined, false, 'parser'))}** | ${rate(pick(set, undefined, false, 'off'))} | **${rate(pick(set, undefined, true, 'parser'))}** | ${rate(pick(set, undefined, true, 'off'))} | ${set === 'public' ? '–' : precision(set)} |`,
  ),
];
for (const set of chosen) {
  const kinds = [...new Set(SETS[set]!.map((item) => item.kind))];
  lines.push(
    '',
    `${set}, by kind:`,
    '',
    '| kind | current first | (off) | past | (off) |',
    '|---|---:|---:|---:|---:|',
    ...kinds.map(
      (kind) =>
        `| ${kind} | ${rate(pick(set, kind, false, 'parser'))} | ${rate(pick(set, kind, false, 'off'))} | ${rate(pick(set, kind, true, 'parser'))} | ${rate(pick(set, kind, true, 'off'))} |`,
    ),
  );
}

const locomoPath = values.locomo ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'locomo10.json');
const locomo: Record<Mode, string[]> = { parser: [], off: [] };
if (existsSync(locomoPath)) {
  const { turns, questions } = readConversations(JSON.parse(readFileSync(locomoPath, 'utf8')) as unknown);
  const ks = [5, 10, 25, 50];
  for (const mode of MODES) {
    const setting = {
      name: mode,
      retain: { contextWindow: 2, ...(mode === 'off' ? { corrections: 'marked' as const } : {}) },
    };
    const { memory, dispose } = await indexTurns(turns, setting, { store: 'sqlite', ks });
    const { scores } = await scoreQuestions(memory, questions, { store: 'sqlite', ks });
    await dispose();
    locomo[mode] = meanRecall(scores, ks).map((value) => value.toFixed(1));
  }
  lines.push(
    '',
    `LoCoMo (${questions.length} questions, turn-level recall):`,
    '',
    '| supersession | R@5 | R@10 | R@25 | R@50 |',
    '|---|---:|---:|---:|---:|',
    `| on (default) | ${locomo.parser.join(' | ')} |`,
    `| off | ${locomo.off.join(' | ')} |`,
  );
} else lines.push('', `LoCoMo skipped: no data at ${locomoPath} (--locomo <file>)`);
console.log(lines.join('\n'));
if (values.failures) {
  const wrong = links.filter((link) => !link.right);
  console.log(`\nFailures (${failures.length}):\n${failures.join('\n')}`);
  console.log(
    `\nWrong links (${wrong.length}):\n${wrong.map((link) => `  [${link.set}] ${link.older} → ${link.newer}`).join('\n')}`,
  );
}
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, outcomes, links, locomo }, null, 2)}\n`);
