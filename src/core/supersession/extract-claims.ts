/** Reading a fact's claims: every rule over every clause, subjects resolved, negation applied. */
import type { Claim } from './claim.js';
import { type ClauseContext, clausesOf, subjectAt } from './clauses.js';
import { normaliseValue } from './phrases.js';
import { RULES, SHARED_FAMILIES } from './rule-set.js';

// A negation right before the predicate ("doesn't live in", "no longer works at", "never liked").
const NEGATED_BEFORE = /(?:\bno\s+longer|\bnot|n't|\bnever|\bnor)\s+(?:\p{L}+\s+)?$/iu;
// …or after the value ("likes tea anymore" is only ever said negated).
const NEGATED_AFTER = /\b(?:anymore|any\s+more|no\s+more)\b/iu;

// A proper name after the first word: the clause is about someone or something named.
const NAMED = /^\S+.*?\s\p{Lu}/u;

/** Longest text a fact is read over: claims sit in the first sentences, and rules stay linear. */
const MAX_CHARS = 4_000;

/** The claims a fact makes, deduplicated. Empty when no rule reads it. */
export function extractClaims(text: string, context: ClauseContext): Claim[] {
  const claims = new Map<string, Claim>();
  for (const clause of clausesOf(text.slice(0, MAX_CHARS), context)) {
    for (const rule of RULES) {
      for (const match of rule.match(clause.text)) {
        let subject = match.subject ?? subjectAt(clause, match.index);
        // Settings, schedules, prices and tools without an owner belong to the scope's world,
        // unless a name opens the clause ("The Berlin team uses pnpm" is another team's).
        if (
          SHARED_FAMILIES.has(match.family) &&
          subject === undefined &&
          !NAMED.test(clause.text.slice(0, match.index))
        )
          subject = 'user';
        if (SHARED_FAMILIES.has(match.family) && subject === 'we') subject = 'user';
        if (!subject) continue;
        const before = clause.text.slice(Math.max(0, match.index - 24), match.index);
        const said = NEGATED_BEFORE.test(before) || NEGATED_AFTER.test(clause.text.slice(match.index));
        let value = normaliseValue(match.value);
        let negated = match.negated === true;
        if (said) {
          // "didn't leave Google" says nothing we can use.
          if (negated || rule.onNegation === 'skip') continue;
          if (rule.onNegation === 'flip') {
            const flipped = rule.flip?.(value);
            if (!flipped) continue;
            value = flipped;
          } else negated = true;
        }
        if (value === '') continue;
        const claim: Claim = {
          subject,
          family: match.family,
          key: normaliseValue(match.key),
          value,
          negated,
          ...(match.from ? { from: normaliseValue(match.from) } : {}),
          rule: rule.name,
        };
        claims.set(`${subject}|${claim.family}|${claim.key}|${value}|${negated}|${claim.from ?? ''}`, claim);
      }
    }
  }
  return [...claims.values()];
}
