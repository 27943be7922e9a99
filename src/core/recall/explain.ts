import type { ScoreBreakdown, ValidityNote } from './recall-result.js';

function validityText(note: ValidityNote): string {
  if (note.state === 'current') return `the version true at the time asked, brought in by ${note.via ?? 'a match'}`;
  if (note.state === 'earlier')
    return `an earlier version, for a question about the past (via ${note.via ?? 'a match'})`;
  if (note.state === 'superseded')
    return `superseded${note.supersededBy ? ` by ${note.supersededBy}` : ''}: ranked below the current version`;
  return 'not yet valid at the time asked: ranked below the version true then';
}

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
  const validity = breakdown.validity ? `; ${validityText(breakdown.validity)}` : '';
  const claim = breakdown.claim ? `; holds the fact asked about (${breakdown.claim})` : '';
  return `${lists.join('; ')} → fused ${round(breakdown.fused)}${boosts ? `; ${boosts}` : ''}${claim}${validity} → ${round(breakdown.final)}`;
}
