import type { ScoreBreakdown } from './recall-result.js';

const round = (value: number) => Number(value.toPrecision(4));

/** One line saying how a result's score was reached, e.g. for logs and the bench's `--explain`. */
export function explainScore(breakdown: ScoreBreakdown): string {
  const lists = [
    breakdown.lexical
      ? `lexical #${breakdown.lexical.rank} (bm25 ${round(breakdown.lexical.score)}, +${round(breakdown.lexical.contribution)})`
      : 'lexical: not found',
    breakdown.vector
      ? `vector #${breakdown.vector.rank} (cosine ${round(breakdown.vector.score)}, +${round(breakdown.vector.contribution)})`
      : 'vector: not found',
    ...(breakdown.feedback === undefined
      ? []
      : [
          breakdown.feedback
            ? `feedback #${breakdown.feedback.rank} (bm25 ${round(breakdown.feedback.score)}, +${round(breakdown.feedback.contribution)})`
            : 'feedback: not found',
        ]),
  ];
  const boosts = breakdown.boosts.map((boost) => `${boost.name} ×${round(boost.factor)}`).join(', ');
  return `${lists.join('; ')} → fused ${round(breakdown.fused)}${boosts ? `; ${boosts}` : ''} → ${round(breakdown.final)}`;
}
