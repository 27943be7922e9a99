// npm run bench:updates [-- --store memory|sqlite] [--locomo <locomo10.json>] [--json out.json]
//
// Current truth: facts that change (homes, jobs, rents, tools, schedules…), retained through
// memoir's public API, then asked about now and about the past. Each case runs twice in the
// same process: with supersession (the default) and with it off (`corrections: 'marked'`),
// so the table shows what the rules add. With --locomo (default ../shared/data/locomo10.json
// when present) it also reports LoCoMo recall with supersession on and off.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createInMemoryStore, createMemory, type MemoryClient } from '../src/index.js';
import { readConversations } from './locomo-data.js';
import { indexTurns, meanRecall, scoreQuestions } from './locomo-eval.js';
import { DISTRACTORS, UPDATE_CASES, type UpdateCase } from './updates/update-cases.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    locomo: { type: 'string' },
    json: { type: 'string' },
  },
});
type Mode = 'rules' | 'off';
const MODES: Mode[] = ['rules', 'off'];

interface Outcome {
  kind: string;
  past: boolean;
  mode: Mode;
  hit: boolean;
}

function client(home: string): MemoryClient {
  return createMemory({
    ...(values.store === 'memory' ? { store: createInMemoryStore() } : { home }),
    logger: { log: () => {} },
  });
}

/** Ask the case's questions after retaining its facts; one outcome per question. */
async function runCase(item: UpdateCase, mode: Mode): Promise<Outcome[]> {
  const home = mkdtempSync(join(tmpdir(), 'memoir-updates-'));
  const memory = client(home);
  const corrections = mode === 'off' ? { corrections: 'marked' as const } : {};
  try {
    await memory.retain(
      DISTRACTORS.map((content, index) => ({ content, occurredAt: `2020-0${1 + (index % 9)}-15` })),
      corrections,
    );
    const ids = new Map<string, string>();
    const byId = new Map(item.facts.map((fact) => [fact.id, fact]));
    for (const id of item.order ?? item.facts.map((fact) => fact.id)) {
      const fact = byId.get(id)!;
      const result = await memory.retain(
        { content: fact.text, occurredAt: fact.date, ...(fact.entities ? { entities: fact.entities } : {}) },
        corrections,
      );
      ids.set(fact.id, result.ids[0]!);
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
      outcomes.push({ kind: item.kind, past: question.past === true, mode, hit });
    }
    return outcomes;
  } finally {
    await memory.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const outcomes: Outcome[] = [];
for (const mode of MODES) for (const item of UPDATE_CASES) outcomes.push(...(await runCase(item, mode)));

const rate = (subset: Outcome[]) =>
  subset.length === 0 ? '–' : `${((100 * subset.filter((o) => o.hit).length) / subset.length).toFixed(0)} %`;
const pick = (kind: string | undefined, past: boolean, mode: Mode) =>
  outcomes.filter((o) => (kind === undefined || o.kind === kind) && o.past === past && o.mode === mode);
const kinds = [...new Set(UPDATE_CASES.map((item) => item.kind))];
const lines = [
  `memoir bench:updates — ${new Date().toISOString().slice(0, 10)} — ${machine}`,
  `${UPDATE_CASES.length} cases, ${outcomes.length / MODES.length} questions (${pick(undefined, true, 'rules').length} about the past), store ${values.store}, offline (no model); each beside the same run with supersession off`,
  '',
  '| kind | current first | (supersession off) | past questions | (supersession off) |',
  '|---|---:|---:|---:|---:|',
  ...kinds.map(
    (kind) =>
      `| ${kind} | ${rate(pick(kind, false, 'rules'))} | ${rate(pick(kind, false, 'off'))} | ${rate(pick(kind, true, 'rules'))} | ${rate(pick(kind, true, 'off'))} |`,
  ),
  `| **all** | **${rate(pick(undefined, false, 'rules'))}** | ${rate(pick(undefined, false, 'off'))} | **${rate(pick(undefined, true, 'rules'))}** | ${rate(pick(undefined, true, 'off'))} |`,
];

const locomoPath = values.locomo ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'locomo10.json');
const locomo: Record<Mode, string[]> = { rules: [], off: [] };
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
    `| on (default) | ${locomo.rules.join(' | ')} |`,
    `| off | ${locomo.off.join(' | ')} |`,
  );
} else lines.push('', `LoCoMo skipped: no data at ${locomoPath} (--locomo <file>)`);
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, outcomes, locomo }, null, 2)}\n`);
