/** Nouns and kinds: which family noun a phrase names, and which kind a tool or owned thing is. */
import { FAMILY_LIST } from './families/index.js';
import { THING_CATEGORY } from './families/owns.js';
import { KIND_WORDS, TOOL_KIND } from './families/tool.js';
import type { Family } from './family.js';
import type { Token } from './parser.js';
import { subjectKey } from './subject.js';

// Nouns that head a phrase they end ("work laptop", "rent budget"): a family noun before one of them is a modifier.
export const HEAD_NOUNS: ReadonlySet<string> = new Set([
  ...FAMILY_LIST.flatMap((family) => (family.nouns ?? []).flatMap((noun) => noun.split(' '))),
  ...Object.keys(THING_CATEGORY),
]);

/** The longest family noun inside `phrase`, as key, with the words before it as the thing it belongs to. */
export function nounIn(family: Family, phrase: string): { key: string; thing: string } | undefined {
  if (!family.nouns || phrase === '') return undefined;
  const words = phrase.split(' ');
  let best: { key: string; thing: string; length: number } | undefined;
  for (const noun of family.nouns) {
    const nounWords = noun.split(' ');
    for (let at = 0; at + nounWords.length <= words.length; at += 1) {
      const here = words.slice(at, at + nounWords.length).map((word) => word.replace(/s$/u, ''));
      if (here.join(' ') !== noun.replace(/s$/u, '') && words.slice(at, at + nounWords.length).join(' ') !== noun)
        continue;
      // The noun must head the phrase: "work laptop" names a laptop, not work.
      const next = words[at + nounWords.length];
      if (next !== undefined && HEAD_NOUNS.has(next.replace(/s$/u, ''))) continue;
      if (best && best.length >= nounWords.length) continue;
      // A schedule's key is the whole phrase ("weekly design sync"); an amount's or setting's is the noun.
      const key =
        family.key === 'noun' && family.name === 'schedule' ? words.slice(0, at + nounWords.length).join(' ') : noun;
      const thing = family.name === 'schedule' ? '' : words.slice(0, at).join(' ');
      best = { key, thing, length: nounWords.length };
    }
  }
  return best && { key: best.key, thing: best.thing };
}

export const toolName = (value: string) => subjectKey(value).replace(/\s+/gu, '-');

/** A tool's kind: from the table, by its name or its first word ("Node 20" → runtime). */
export function toolKind(value: string): string | undefined {
  const name = toolName(value);
  return (
    TOOL_KIND.get(name) ?? TOOL_KIND.get(name.split('-')[0] ?? '') ?? TOOL_KIND.get(name.replace(/-?\d[\d.]*$/u, ''))
  );
}

/** A kind named in the clause ("our CI", "the test runner"). */
export function kindNamed(tokens: readonly Token[], attribute: string): string | undefined {
  const text = ` ${attribute} ${tokens.map((token) => token.lower).join(' ')} `;
  let best: string | undefined;
  for (const words of Object.keys(KIND_WORDS))
    if (text.includes(` ${words} `) && (!best || words.length > best.length)) best = words;
  return best && KIND_WORDS[best];
}

export function categoryOf(value: string, attribute: string): string | undefined {
  const words = `${attribute} ${value}`.toLowerCase().split(/\s+/u);
  for (const word of words) {
    const found = THING_CATEGORY[word.replace(/[^\p{L}\p{N}-]/gu, '')];
    if (found) return found;
  }
  return undefined;
}
