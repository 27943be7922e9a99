import type { ScoreBreakdown, ValidityNote } from './recall-result.js';

// A version recall brought in by another version's match says whose: the question matched
// the older (or newer) text, and this is the version that was true at the time asked.
function validityText(note: ValidityNote): string {
  if (note.state === 'current')
    return note.via
      ? `successor of ${note.via}: the version true at the time asked, brought in by that version's match`
      : 'the version true at the time asked';
  if (note.state === 'earlier')
    return note.via
      ? `earlier version of ${note.via}, for a question about the past, brought in by that version's match`
      : 'an earlier version, for a question about the past';
  if (note.state === 'superseded')
    return `superseded${note.supersededBy ? ` by ${note.supersededBy}` : ''}: ranked below the current version`;
  return 'not yet valid at the time asked: ranked below the version true then';
}

const round = (value: number) => Number(value.toPrecision(4));

/**
 * One line saying how a result's score was reached, e.g. for logs and the bench's `--explain`.
 * A result no list found, there as another version of a fact that matched, starts with why it
 * is there (`successor of mem_…`) rather than with lists that did not find it.
 */
export function explainScore(breakdown: ScoreBreakdown): string {
  const matched = breakdown.lexical !== null || breakdown.vector !== null || Boolean(breakdown.feedback);
  const via = breakdown.validity?.via;
  if (!matched && via !== undefined && breakdown.validity) {
    const boosts = breakdown.boosts.map((boost) => `${boost.name} ×${round(boost.factor)}`).join(', ');
    return `${validityText(breakdown.validity)}; not matched itself (lexical and vector: not found)${boosts ? `; ${boosts}` : ''} → ${round(breakdown.final)}`;
  }
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
