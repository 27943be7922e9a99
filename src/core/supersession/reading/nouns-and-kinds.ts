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

/** A family's nouns looked up by a window of words, as {@link nounIn} compares them. */
interface NounLookup {
  /** A noun with its last "s" dropped → the indexes of the nouns it comes from. */
  bySingular: Map<string, number[]>;
  /** A noun as written → its indexes. */
  byWritten: Map<string, number[]>;
  /** The word counts of the nouns, longest first. */
  lengths: number[];
  /** Each noun's word count. */
  wordCounts: number[];
}

// Built once per family: nounIn runs for every clause of every fact a retain compares, and
// scanning each noun at each position was over half a retain's CPU once a fact had 100 versions.
const lookups = new WeakMap<Family, NounLookup>();

function lookupOf(family: Family, nouns: readonly string[]): NounLookup {
  let lookup = lookups.get(family);
  if (lookup) return lookup;
  const bySingular = new Map<string, number[]>();
  const byWritten = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, index: number) => {
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  };
  const wordCounts = nouns.map((noun, index) => {
    add(bySingular, noun.replace(/s$/u, ''), index);
    add(byWritten, noun, index);
    return noun.split(' ').length;
  });
  lookup = { bySingular, byWritten, lengths: [...new Set(wordCounts)].sort((a, b) => b - a), wordCounts };
  lookups.set(family, lookup);
  return lookup;
}

/** The longest family noun inside `phrase`, as key, with the words before it as the thing it belongs to. */
export function nounIn(family: Family, phrase: string): { key: string; thing: string } | undefined {
  const nouns = family.nouns;
  if (!nouns || phrase === '') return undefined;
  const { bySingular, byWritten, lengths, wordCounts } = lookupOf(family, nouns);
  const words = phrase.split(' ');
  const singular = words.map((word) => word.replace(/s$/u, ''));
  // A window matches a noun when its words without their last "s" spell the noun without its
  // last "s", or when it spells the noun as written. Of the longest matches, the first noun of
  // the family's list wins, then the first position.
  for (const length of lengths) {
    let best: { index: number; at: number } | undefined;
    for (let at = 0; at + length <= words.length; at += 1) {
      // The noun must head the phrase: "work laptop" names a laptop, not work.
      const next = singular[at + length];
      if (next !== undefined && HEAD_NOUNS.has(next)) continue;
      const found = [
        ...(bySingular.get(singular.slice(at, at + length).join(' ')) ?? []),
        ...(byWritten.get(words.slice(at, at + length).join(' ')) ?? []),
      ];
      for (const index of found) {
        if (wordCounts[index] !== length) continue;
        if (!best || index < best.index || (index === best.index && at < best.at)) best = { index, at };
      }
    }
    if (best) {
      const noun = nouns[best.index]!;
      const end = best.at + length;
      // A schedule's key is the whole phrase ("weekly design sync"); an amount's or setting's is the noun.
      const key = family.key === 'noun' && family.name === 'schedule' ? words.slice(0, end).join(' ') : noun;
      const thing = family.name === 'schedule' ? '' : words.slice(0, best.at).join(' ');
      return { key, thing };
    }
  }
  return undefined;
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
