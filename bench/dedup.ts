// npm run bench:dedup [-- --embedders local,use --json out.json]
//
// Which stored memories the conversation pipeline shows to the model's dedup decision: those
// whose cosine with a newly extracted memory reaches the threshold (dedup-threshold.ts). On
// pairs of memories — reworded duplicates (dedup should catch them) and related but different
// facts (never to be merged) — it prints, per embedder, the share of duplicates that reach the
// decision (recall), the share of reaching pairs that are duplicates (precision) and how many
// different facts reach it, at the old threshold (0.7 for every embedder) and at the kind's
// threshold now. DEV (tests/fixtures/paraphrase-pairs/dev.json) is where the thresholds were
// chosen; TEST (test.json, written apart and not read until they were fixed) is held out.
// It also prints the share of unrelated pairs (one duplicate pair's a against another's b)
// that reach the decision, each one a model call answered CREATE, and what `consolidate`,
// which deletes without asking a model, would delete at its default 0.95, before and since it
// keeps a fact apart from its negation.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSentenceEncoderEmbedder, sentenceEncoderAvailable } from '../src/adapters/sentence-encoder/index.js';
import { dedupSimilarity, SEMANTIC_DEDUP_SIMILARITY } from '../src/core/retain/conversation/dedup-threshold.js';
import { negateAlike } from '../src/core/text/negation.js';
import { numbersAlike } from '../src/core/text/stated-numbers.js';
import { createLocalEmbedder, type Embedder } from '../src/index.js';

const { values } = parseArgs({
  options: { embedders: { type: 'string', default: 'local,use' }, json: { type: 'string' } },
});

interface Pair {
  a: string;
  b: string;
  duplicate: boolean;
  kind?: string;
}
interface Scored extends Pair {
  similarity: number;
}

const FIXTURES = join(import.meta.dirname, '../tests/fixtures/paraphrase-pairs');
/** The threshold every embedder had before it was chosen per kind. */
const OLD_THRESHOLD = SEMANTIC_DEDUP_SIMILARITY;
/** `consolidate`'s default: memories this close are merged without a model. */
const CONSOLIDATE_THRESHOLD = 0.95;

function load(name: string): Pair[] | undefined {
  const file = join(FIXTURES, `${name}.json`);
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { pairs: Pair[] }).pairs;
}

const cosine = (x: Float32Array, y: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i]! * y[i]!;
  return sum;
};

async function score(embedder: Embedder, pairs: readonly Pair[]): Promise<{ scored: Scored[]; unrelated: number[] }> {
  const vectors = await embedder.embed(pairs.flatMap((pair) => [pair.a, pair.b]));
  const scored = pairs.map((pair, index) => ({
    ...pair,
    similarity: cosine(vectors[2 * index]!, vectors[2 * index + 1]!),
  }));
  // Unrelated memories: one duplicate pair's a against every other duplicate pair's b.
  const duplicates = pairs.flatMap((pair, index) => (pair.duplicate ? [index] : []));
  const unrelated: number[] = [];
  for (const i of duplicates) {
    for (const j of duplicates) if (i !== j) unrelated.push(cosine(vectors[2 * i]!, vectors[2 * j + 1]!));
  }
  return { scored, unrelated };
}

interface Figures {
  threshold: number;
  recall: number;
  precision: number;
  /** Different facts that reach the decision, of all different facts. */
  differentReaching: number;
  different: number;
  /** Share of unrelated pairs that reach the decision. */
  unrelatedRate: number;
}

function figures(threshold: number, { scored, unrelated }: { scored: Scored[]; unrelated: number[] }): Figures {
  const reach = scored.filter((pair) => pair.similarity >= threshold);
  const caught = reach.filter((pair) => pair.duplicate).length;
  const duplicates = scored.filter((pair) => pair.duplicate).length;
  return {
    threshold,
    recall: caught / Math.max(1, duplicates),
    precision: reach.length === 0 ? 1 : caught / reach.length,
    differentReaching: reach.length - caught,
    different: scored.length - duplicates,
    unrelatedRate: unrelated.filter((value) => value >= threshold).length / Math.max(1, unrelated.length),
  };
}

const pct = (value: number) => `${(value * 100).toFixed(0)} %`;
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

const embedders: Array<[string, () => Embedder]> = [];
for (const name of values.embedders.split(',').map((each) => each.trim())) {
  if (name === 'local') embedders.push(['local (hashing)', () => createLocalEmbedder()]);
  else if (name === 'use') {
    if (sentenceEncoderAvailable()) embedders.push(['sentence encoder', () => createSentenceEncoderEmbedder()]);
    else console.error('bench:dedup: the sentence encoder is not installed; left out');
  } else throw new Error(`unknown embedder ${name}: expected local or use`);
}
const sets = (['dev', 'test'] as const).flatMap((name) => {
  const pairs = load(name);
  return pairs ? [{ name, pairs }] : [];
});

const report: Record<string, unknown>[] = [];
console.log(
  row(['embedder', 'set', 'threshold', 'recall', 'precision', 'different facts reaching', 'unrelated reaching']),
);
console.log(row(Array(7).fill('---')));
const kinds: string[] = [];
for (const [name, make] of embedders) {
  const embedder = make();
  const chosen = dedupSimilarity(embedder);
  for (const set of sets) {
    const scores = await score(embedder, set.pairs);
    for (const [label, threshold] of [
      ['old', OLD_THRESHOLD],
      ['now', chosen],
    ] as const) {
      if (label === 'now' && threshold === OLD_THRESHOLD) continue;
      const f = figures(threshold, scores);
      console.log(
        row([
          name,
          set.name,
          `${threshold} (${label === 'old' && threshold === chosen ? 'old = now' : label})`,
          pct(f.recall),
          pct(f.precision),
          `${f.differentReaching} / ${f.different}`,
          `${(f.unrelatedRate * 100).toFixed(1)} %`,
        ]),
      );
      report.push({ embedder: name, set: set.name, label, ...f });
    }
    // consolidate's clusters: cosine at its threshold, then as many negations in each, then
    // the same numbers too (the pairs are retained facts, not captured tool calls).
    for (const [label, guard] of [
      ['no guard', () => true],
      ['negations', (a: string, b: string) => negateAlike(a, b)],
      ['negations and numbers', (a: string, b: string) => negateAlike(a, b) && numbersAlike(a, b)],
    ] as const) {
      const close = scores.scored.filter((pair) => pair.similarity >= CONSOLIDATE_THRESHOLD && guard(pair.a, pair.b));
      const deleted = close.filter((pair) => !pair.duplicate);
      const merged = close.length - deleted.length;
      kinds.push(
        `${name}, ${set.name}: consolidate at ${CONSOLIDATE_THRESHOLD} (${label}) merges ${merged} of the duplicates and deletes ${deleted.length} different fact(s)${deleted.length > 0 ? `: ${deleted.map((pair) => `"${pair.a}" / "${pair.b}"`).join('; ')}` : ''}`,
      );
    }
    // Per kind of pair, where the set names them (test.json does).
    if (set.pairs.some((pair) => pair.kind)) {
      const byKind = new Map<string, Scored[]>();
      for (const pair of scores.scored) byKind.set(pair.kind ?? '?', [...(byKind.get(pair.kind ?? '?') ?? []), pair]);
      const parts = [...byKind].map(([kind, pairs]) => {
        const reaching = pairs.filter((pair) => pair.similarity >= chosen).length;
        return `${kind} ${pairs[0]!.duplicate ? '+' : '-'}${reaching}/${pairs.length}`;
      });
      kinds.push(
        `${name}, ${set.name}, pairs reaching ${chosen} by kind (+ duplicates, - different): ${parts.join(', ')}`,
      );
    }
  }
  await (embedder as { close?: () => Promise<void> }).close?.();
}
console.log('');
for (const line of kinds) console.log(line);
if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
process.exit(0);
