/** Making a text plain (contractions, corrections, "'s" as "is") and splitting its tokens into clauses. */
import { rewriteCorrections } from '../corrections.js';
import type { Token } from './parser.js';

export const CLAUSE_BREAKS = new Set([';', ':', '—', '–', '(', ')', '!', '?', '--']);

/** "Hannah's in Utrecht", "Tom's now a manager": an "'s" before a preposition, adverb or article is "is". */
export function possessiveOrIs(tokens: Token[]): Token[] {
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.lower !== "'s" || token.pos === 'AUX' || tokens[index - 1]!.pos !== 'PROPN') continue;
    const next = tokens[index + 1];
    const adjectiveOfNoun = next?.pos === 'ADJ' && ['NOUN', 'PROPN'].includes(tokens[index + 2]?.pos ?? '');
    if (
      next &&
      ['ADP', 'ADV', 'DET', 'VERB', 'ADJ', 'NUM', 'AUX', 'PART'].includes(next.pos) &&
      next.lower !== 'own' &&
      !adjectiveOfNoun
    )
      tokens[index] = { ...token, pos: 'AUX', lemma: 'be' };
  }
  return tokens;
}

export function expandContractions(text: string): string {
  return text
    .replace(/\bI'm\b/gu, 'I am')
    .replace(/\b(I|you|we|they)'ve\b/giu, '$1 have')
    .replace(/\b(you|we|they)'re\b/giu, '$1 are')
    .replace(/\b(I|you|we|they|he|she)'ll\b/giu, '$1 will')
    .replace(/\bcan't\b/giu, 'can not')
    .replace(/\bcannot\b/giu, 'can not')
    .replace(/\bwon't\b/giu, 'will not');
}

/** The text with correction phrasing rewritten, clause by clause ("Actually it's X, not Y" → "it's X"). */
export function withCorrectionsRead(text: string): string {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\d"])|\n+/u)
    .map((sentence) =>
      sentence
        .split(/(\s*;\s*|\s+[—–]\s+)/u)
        .map((part, index) => (index % 2 === 1 ? part : rewriteCorrections(part)))
        .join(''),
    )
    .join('\n');
}

/** Splits tokens into clauses: at sentence ends, strong punctuation, and a conjunction or comma that starts a new subject or verb. */
export function clausesOf(tokens: readonly Token[]): Token[][] {
  const clauses: Token[][] = [];
  let current: Token[] = [];
  const flush = () => {
    if (current.length > 0) clauses.push(current);
    current = [];
  };
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const previous = tokens[index - 1];
    if (previous && previous.sentence !== token.sentence) flush();
    if (
      CLAUSE_BREAKS.has(token.text) ||
      (token.text === '-' && tokens[index + 1]?.text !== '-' && previous?.shape !== 'word')
    ) {
      flush();
      continue;
    }
    const hasVerb = current.some((word) => word.pos === 'VERB' || word.pos === 'AUX');
    if ((token.pos === 'CCONJ' || token.text === ',' || token.lower === 'so' || token.lower === 'then') && hasVerb) {
      const next = tokens[index + 1];
      const after = tokens[index + 2];
      const newSubject =
        next &&
        ['PRON', 'PROPN'].includes(next.pos) &&
        after &&
        ['AUX', 'VERB'].includes(after.pos) &&
        !['my', 'our', 'his', 'her', 'their'].includes(next.lower);
      const newVerb =
        next && token.pos === 'CCONJ' && (next.pos === 'VERB' || (next.pos === 'ADV' && after?.pos === 'VERB'));
      if (newSubject || newVerb) {
        flush();
        continue;
      }
    }
    current.push(token);
  }
  flush();
  return clauses;
}
