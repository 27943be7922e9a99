/**
 * Relationship status: "is single", "got married", "is engaged to Sam", "is dating Alex",
 * "broke up with Jo" (single again), "is divorced". One status at a time; a partner's name,
 * when given, is part of the value.
 */
import type { ClaimRule } from '../claim.js';
import { containsAny, nameAt } from '../phrases.js';
import { readAfter } from './read-after.js';

const STATUS =
  /\b(?:is|am|'m|are|'re|got|gets|getting|became|has\s+been|now|recently|just)\s+(?:now\s+|recently\s+|just\s+|happily\s+|officially\s+)?(single|married|engaged|divorced|separated|widowed)\b(?:\s+(?:to|from)\s+)?/giu;
const DATING =
  /\b(?:is|am|'m|are|'re|started|starts|now|has\s+been)\s+(?:now\s+)?(?:dating|seeing|going\s+out\s+with)\s+/giu;
const TOGETHER = /\bin\s+a\s+relationship\b(?:\s+with\s+)?/giu;
const BROKE_UP = /\b(?:broke\s+up|split\s+up|splits\s+up|breaks\s+up|called\s+it\s+off)\b(?:\s+with\s+)?/giu;

/** Relationship status. */
export const relationshipRule: ClaimRule = {
  name: 'relationship',
  families: { relationship: { keyMatch: 'exact' } },
  onNegation: 'skip',
  // STATUS needs a status word; DATING, TOGETHER and BROKE_UP their verbs.
  mayMatch: containsAny([
    ...['single', 'married', 'engaged', 'divorced', 'separated', 'widowed'],
    ...['dating', 'seeing', 'going', 'relationship', 'broke', 'split', 'breaks', 'called'],
  ]),
  match(clause) {
    const withPartner = (status: string, rest: string) => {
      const partner = nameAt(rest);
      return { family: 'relationship', key: '', value: partner ? `${status} ${partner}` : status };
    };
    return [
      ...readAfter(clause, STATUS, (rest, match) =>
        withPartner((match[1] ?? '').toLowerCase(), /\s(?:to|from)\s+$/iu.test(match[0]) ? rest : ''),
      ),
      ...readAfter(clause, DATING, (rest) => (nameAt(rest) ? withPartner('dating', rest) : undefined)),
      ...readAfter(clause, TOGETHER, (rest, match) =>
        withPartner('in a relationship', /with\s+$/iu.test(match[0]) ? rest : ''),
      ),
      ...readAfter(clause, BROKE_UP, () => ({ family: 'relationship', key: '', value: 'single' })),
    ];
  },
};
