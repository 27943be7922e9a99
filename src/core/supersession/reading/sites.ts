/** Where a clause's verbs are (with their particles and negation), and what follows them. */
import { FAMILY_LIST } from './families/index.js';
import { GENERIC_ENDS, NEGATORS } from './frame-words.js';
import type { Token } from './parser.js';

export interface Site {
  /** Index of the verb token. */
  at: number;
  /** Lemma with its particles ("move out", "give up"). */
  lemma: string;
  /** Index after the verb and its particles. */
  after: number;
  negated: boolean;
}

// Multi-word verbs every table names, by their first lemma, longest first.
export const PHRASAL = (() => {
  const byHead = new Map<string, string[][]>();
  const add = (phrase: string) => {
    const words = phrase.split(' ');
    if (words.length < 2) return;
    const list = byHead.get(words[0]!) ?? [];
    if (!list.some((known) => known.join(' ') === phrase)) list.push(words);
    byHead.set(words[0]!, list);
  };
  for (const family of FAMILY_LIST)
    for (const table of [family.states, family.ends, family.statuses])
      for (const phrase of Object.keys(table ?? {})) add(phrase);
  for (const phrase of Object.keys(GENERIC_ENDS)) add(phrase);
  for (const list of byHead.values()) list.sort((a, b) => b.length - a.length);
  return byHead;
})();

export function sitesOf(tokens: readonly Token[], from: number): Site[] {
  const sites: Site[] = [];
  for (let at = from; at < tokens.length; at += 1) {
    const token = tokens[at]!;
    if (token.pos !== 'VERB' && token.pos !== 'AUX' && !(token.lemma === 'stand' && tokens[at - 1]?.lemma === 'not'))
      continue;
    let lemma = token.lemma;
    let after = at + 1;
    for (const words of PHRASAL.get(lemma) ?? []) {
      const rest = words.slice(1);
      // "be a fan of", "can not stand": the words may sit after the verb as they are written.
      if (
        rest.every((word, offset) => tokens[at + 1 + offset]?.lower === word || tokens[at + 1 + offset]?.lemma === word)
      ) {
        lemma = words.join(' ');
        after = at + words.length;
        break;
      }
    }
    if (lemma === 'stand' && tokens[at - 1]?.lemma === 'not' && tokens[at - 2]?.lemma === 'can')
      lemma = 'can not stand';
    const window = tokens.slice(Math.max(from, at - 3), at);
    const negated =
      (token.negated && lemma !== 'can not stand') ||
      window.some(
        (before) => NEGATORS.has(before.lower) || (before.lower === 'longer' && window.some((w) => w.lower === 'no')),
      );
    sites.push({ at, lemma, after, negated });
  }
  return sites;
}

/** Where the words `intro` follow `start` (within a few tokens, not past another verb); the index after them. */
export function introduced(tokens: readonly Token[], start: number, intro: string, reach = 8): number | undefined {
  if (intro === '') return start;
  const words = intro.split(' ');
  for (let at = start; at < Math.min(tokens.length, start + reach); at += 1) {
    if (at > start && (tokens[at]!.pos === 'VERB' || (tokens[at]!.shape === 'punctuation' && tokens[at]!.text !== ',')))
      return undefined;
    if (words.every((word, offset) => tokens[at + offset]?.lower === word)) return at + words.length;
  }
  return undefined;
}
