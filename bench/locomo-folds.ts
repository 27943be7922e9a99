// Held-out tuning: the conversations are split into folds; each setting of a grid is scored
// on every conversation once, the best setting is chosen on all folds but one and reported
// on the one left out, for each fold in turn. A setting only earns a place among the
// defaults when what it gains on the folds it was chosen on holds on the one it was not.
import type { Question, Turn } from './locomo-data.js';
import { type EvalOptions, type EvalSetting, evaluate, meanRecall, plainBm25, type Score } from './locomo-eval.js';

export interface FoldsOptions extends EvalOptions {
  folds: number;
  /** The settings to choose among; the first is the library's default. */
  grid: readonly EvalSetting[];
  print: (line: string) => void;
}

/** Conversations dealt into `folds` groups in sorted order, round robin. */
export function splitFolds(sampleIds: readonly string[], folds: number): string[][] {
  const groups: string[][] = Array.from({ length: folds }, () => []);
  for (const [i, id] of [...sampleIds].sort().entries()) groups[i % folds]!.push(id);
  return groups;
}

/** LoCoMo's question categories. */
export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

const fmt = (values: readonly number[]) => values.map((value) => value.toFixed(1));
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;

/** Mean of the recall@k means, the single figure a setting is chosen by. */
function objective(scores: readonly Score[], ks: readonly number[]): number {
  const means = meanRecall(scores, ks);
  return means.reduce((a, b) => a + b, 0) / means.length;
}

/** Standard deviation, across conversations, of each conversation's recall@k mean. */
function spread(scores: readonly Score[], ks: readonly number[]): number[] {
  const samples = [...new Set(scores.map((score) => score.sampleId))];
  const perSample = samples.map((id) =>
    meanRecall(
      scores.filter((score) => score.sampleId === id),
      ks,
    ),
  );
  return ks.map((_, i) => {
    const values = perSample.map((row) => row[i]!);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, values.length - 1));
  });
}

/** Score every setting of the grid on every conversation, then choose and report per fold. */
export async function runFolds(turns: readonly Turn[], questions: readonly Question[], options: FoldsOptions) {
  const { ks, print } = options;
  const groups = splitFolds([...new Set(turns.map((turn) => turn.sampleId))], options.folds);
  const bm25 = plainBm25(turns, questions, ks);
  const results = new Map<string, Score[]>();
  for (const setting of options.grid) {
    const started = performance.now();
    results.set(setting.name, await evaluate(turns, questions, setting, options));
    print(`  scored ${setting.name} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const inSamples = (scores: readonly Score[], ids: readonly string[]) =>
    scores.filter((score) => ids.includes(score.sampleId));
  const defaultName = options.grid[0]!.name;
  const kCols = ks.map((k) => `R@${k}`).join(' | ');
  print('');
  print(
    `| held out | chosen on the rest | ${kCols} | default ${kCols} | BM25 ${kCols} | spread (sd across conversations) |`,
  );
  print(
    `|---|---|${ks.map(() => '---:').join('|')}|${ks.map(() => '---:').join('|')}|${ks.map(() => '---:').join('|')}|---|`,
  );
  const heldOut: Score[] = [];
  for (const [fold, held] of groups.entries()) {
    const rest = groups.filter((_, other) => other !== fold).flat();
    let best = options.grid[0]!;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const setting of options.grid) {
      const value = objective(inSamples(results.get(setting.name)!, rest), ks);
      if (value > bestValue + 1e-9) {
        best = setting;
        bestValue = value;
      }
    }
    const chosen = inSamples(results.get(best.name)!, held);
    heldOut.push(...chosen);
    print(
      `| fold ${fold + 1} (${held.join(', ')}) | ${best.name} | ${fmt(meanRecall(chosen, ks)).join(' | ')} | ${fmt(
        meanRecall(inSamples(results.get(defaultName)!, held), ks),
      ).join(
        ' | ',
      )} | ${fmt(meanRecall(inSamples(bm25, held), ks)).join(' | ')} | ${fmt(spread(chosen, ks)).join(' / ')} |`,
    );
  }
  print(
    `| all, each fold held out | — | ${fmt(meanRecall(heldOut, ks)).join(' | ')} | ${fmt(
      meanRecall(results.get(defaultName)!, ks),
    ).join(' | ')} | ${fmt(meanRecall(bm25, ks)).join(' | ')} | ${fmt(spread(heldOut, ks)).join(' / ')} |`,
  );
  print('');
  print(`By category, each fold held out: chosen setting | defaults | BM25, recall at ${ks.join(' / ')}.`);
  print('');
  print('| category | questions | chosen on the rest | defaults | BM25 |');
  print('|---|---:|---|---|---|');
  const defaults = results.get(defaultName)!;
  for (const [category, label] of Object.entries(CATEGORY_NAMES)) {
    const of = (scores: readonly Score[]) => scores.filter((score) => score.category === Number(category));
    const cells = [heldOut, defaults, bm25].map((scores) => fmt(meanRecall(of(scores), ks)).join(' / '));
    print(`| ${category} ${label} | ${of(defaults).length} | ${cells.join(' | ')} |`);
  }
  print('');
  print(`Each setting beside the default (${defaultName}), per fold: points of recall at ${ks.join(' / ')}.`);
  print('');
  print(`| setting | ${groups.map((_, fold) => `fold ${fold + 1}`).join(' | ')} | all | gain over BM25, all |`);
  print(`|---|${groups.map(() => '---').join('|')}|---|---|`);
  for (const setting of options.grid) {
    const scores = results.get(setting.name)!;
    const base = results.get(defaultName)!;
    const delta = (ids: readonly string[]) => {
      const a = meanRecall(inSamples(scores, ids), ks);
      const b = meanRecall(inSamples(base, ids), ks);
      return a.map((value, i) => signed(value - b[i]!)).join(' / ');
    };
    const all = groups.flat();
    const overBm25 = meanRecall(scores, ks).map((value, i) => signed(value - meanRecall(bm25, ks)[i]!));
    print(
      `| ${setting.name} | ${groups.map((ids) => delta(ids)).join(' | ')} | ${delta(all)} | ${overBm25.join(' / ')} |`,
    );
  }
  return { results, bm25, groups };
}
