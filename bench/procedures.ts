/**
 * Calibrates the procedure thresholds for an embedder (default: the local hashing embedder)
 * on the paraphrased task requests of bench/procedure-calibration.ts, scored exactly as
 * `memory.procedures` scores them:
 * - retrieval (`similarityThreshold`): a request against a stored procedure's vectors (the
 *   best of title + triggers, title, each trigger); positives are requests of the procedure's
 *   own kind, negatives every other procedure;
 * - update (`updateThreshold`): a new draft's title + triggers against a stored procedure's.
 * Prints each distribution and, per threshold, how many positives pass (recall) and how many
 * negatives pass (false matches).
 *
 *   npm run bench:procedures              # the local embedder
 *   npm run bench:procedures -- --openai  # the OpenAI-compatible embedder (OPENAI_* variables)
 *   npm run bench:procedures -- --use     # the sentence encoder (memoir/sentence-encoder)
 */
import { createLocalEmbedder } from '../src/adapters/local-embedder/index.js';
import { createSentenceEncoderEmbedder } from '../src/adapters/sentence-encoder/index.js';
import type { Embedder } from '../src/index.js';
import { measureProcedureSimilarities, TASK_FAMILIES } from './procedure-calibration.js';

async function chooseEmbedder(): Promise<Embedder> {
  if (process.argv.includes('--use')) return createSentenceEncoderEmbedder();
  if (!process.argv.includes('--openai')) return createLocalEmbedder();
  const { createOpenAIEmbedder } = await import('../src/adapters/openai/index.js');
  return createOpenAIEmbedder();
}

function describe(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3);
  return `n=${sorted.length} min ${at(0)}  p10 ${at(0.1)}  median ${at(0.5)}  p90 ${at(0.9)}  max ${sorted.at(-1)!.toFixed(3)}`;
}

function sweep(positives: number[], negatives: number[]): string[] {
  const lines = ['  threshold  recall  false matches'];
  for (let step = 2; step <= 16; step++) {
    const t = step * 0.05;
    const recall = positives.filter((value) => value >= t).length / positives.length;
    const falses = negatives.filter((value) => value >= t).length;
    lines.push(
      `  ${t.toFixed(2).padStart(9)}  ${(recall * 100).toFixed(0).padStart(5)}%  ${falses}/${negatives.length}`,
    );
  }
  return lines;
}

const embedder = await chooseEmbedder();
const { retrieval, update } = await measureProcedureSimilarities(embedder);
console.log(
  [
    `embedder ${embedder.id} (semantic: ${embedder.semantic !== false}); ${TASK_FAMILIES.length} kinds of task, ${retrieval.total} requests`,
    '',
    `retrieval, request vs procedure: the right procedure ranks first for ${retrieval.top1}/${retrieval.total}`,
    `  same kind:  ${describe(retrieval.positives)}`,
    `  other kind: ${describe(retrieval.negatives)}`,
    ...sweep(retrieval.positives, retrieval.negatives),
    '',
    'update, new draft vs stored procedure (title + triggers):',
    `  same kind:  ${describe(update.positives)}`,
    `  other kind: ${describe(update.negatives)}`,
    ...sweep(update.positives, update.negatives),
  ].join('\n'),
);
