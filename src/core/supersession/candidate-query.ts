/**
 * The words that find older facts a claim may replace: an older fact about the same
 * attribute shares few words with the new one ("I moved to Lisbon" / "I live in Berlin"),
 * so each family adds the words its facts are said with.
 */
import type { Claim } from './claim.js';

const FAMILY_WORDS: Record<string, string> = {
  residence: 'live lives lived living moved moving relocated based home resides',
  employer: 'work works working job joined employer company left employed',
  'job title': 'job title role position promoted works engineer manager designer',
  relationship: 'single married engaged divorced dating relationship partner wife husband girlfriend boyfriend broke',
  stance: 'like likes love loves hate hates dislike dislikes enjoy enjoys fan prefer prefers',
  favourite: 'favourite favorite',
  diet: 'vegan vegetarian pescatarian keto paleo diet meat eat eats',
  owns: 'drive drives bought owns has got',
  amount: '',
  version: 'version upgraded',
  schedule: 'moved rescheduled cancelled',
  tool: 'use uses using switched',
  setting: '',
};

/** A lexical query for the older facts that may state another value of `claims`' attributes. */
export function candidateQuery(claims: readonly Claim[]): string {
  const words = new Set<string>();
  for (const claim of claims) {
    for (const text of [FAMILY_WORDS[claim.family] ?? '', claim.key, claim.value, claim.from ?? ''])
      for (const word of text.split(/[^\p{L}\p{N}]+/u)) if (word.length > 1) words.add(word.toLowerCase());
    if (!['user', 'we'].includes(claim.subject))
      for (const word of claim.subject.split(/[^\p{L}\p{N}]+/u)) if (word.length > 1) words.add(word);
  }
  return [...words].slice(0, 64).join(' ');
}
