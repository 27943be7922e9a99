/** Finding, without a model, which new facts bear on which opinions, and which way. */
import type { Memory } from '../spec/memory.js';
import { analyzeTerms } from '../text/analyze.js';
import type { OpinionEvidence } from './opinion-rule.js';

// A fact shares at least this share of the shorter text's terms with an opinion to count as evidence.
const MIN_OVERLAP = 0.5;
const NEGATION =
  /\b(?:no longer|not|no|never|none|nor|stopped|quit|dislikes?|hates?|against|doesn't|don't|didn't|isn't|wasn't|won't|can't|cannot|without)\b|n't\b/gi;

function polarity(text: string): number {
  return (text.match(NEGATION)?.length ?? 0) % 2;
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / Math.min(a.size, b.size);
}

/** A fact's bearing on an opinion, with the fact's id. */
export interface FoundEvidence extends OpinionEvidence {
  /** The fact's memory id. */
  memoryId: string;
}

/**
 * Evidence for `opinion` among `facts`: a fact that shares an entity with the opinion and
 * enough of its words supports it, or contradicts it when exactly one of the two is negated
 * ("prefers …" against "no longer prefers …"). Its strength is the share of words in common.
 */
export function evidenceFor(opinion: Memory, facts: readonly Memory[]): FoundEvidence[] {
  const entities = new Set(opinion.entities.map((entity) => entity.toLowerCase()));
  // The shared entity is a given; only the words about it count.
  const names = new Set(opinion.entities.flatMap((entity) => analyzeTerms(entity)));
  const termsOf = (text: string) =>
    new Set(analyzeTerms(text.replace(NEGATION, ' ')).filter((term) => !names.has(term)));
  const terms = termsOf(opinion.content);
  const opinionPolarity = polarity(opinion.content);
  const found: FoundEvidence[] = [];
  for (const fact of facts) {
    if (fact.id === opinion.id || !fact.entities.some((entity) => entities.has(entity.toLowerCase()))) continue;
    const strength = overlap(terms, termsOf(fact.content));
    if (strength < MIN_OVERLAP) continue;
    found.push({
      memoryId: fact.id,
      source: fact.source?.file ?? fact.id,
      direction: polarity(fact.content) === opinionPolarity ? 'support' : 'contradict',
      strength: Math.min(1, strength),
    });
  }
  return found;
}
