/** Reading a fact's claims: every rule over every clause, subjects resolved, negation applied. */
import type { Claim, ClaimRule } from './claim.js';
import { type ClauseContext, clausesOf, subjectAt } from './clauses.js';
import { containsAny, normaliseValue } from './phrases.js';
import { RULES, SHARED_FAMILIES } from './rule-set.js';

// A negation right before the predicate ("doesn't live in", "no longer works at", "never liked").
const NEGATED_BEFORE = /(?:\bno\s+longer|\bnot|n't|\bnever|\bnor)\s+(?:\p{L}+\s+)?$/iu;
// …or after the value ("likes tea anymore" is only ever said negated).
const NEGATED_AFTER = /\b(?:anymore|any\s+more|no\s+more)\b/iu;

// A proper name after the first word: the clause is about someone or something named.
const NAMED = /^\S+.*?\s\p{Lu}/u;

/** Longest text a fact is read over: claims sit in the first sentences, and rules stay linear. */
const MAX_CHARS = 4_000;

// The rewrites that drop text ("not X but Y", "X, not Y") start at the word "not".
const MAY_REWRITE = containsAny(['not']);

/**
 * The rules that may read something in `body` (normalised as the clauses are). Rewriting a
 * correction ("not X but Y") joins text around what it drops; without a "not" every clause
 * is a slice of the body, so a rule whose words are nowhere in the body reads none of them.
 */
function rulesFor(body: string, rules: readonly ClaimRule[]): readonly ClaimRule[] {
  const lower = body.toLowerCase();
  return MAY_REWRITE(lower) ? rules : rules.filter((rule) => rule.mayMatch(lower));
}

/**
 * The claims a fact makes, deduplicated. Empty when no rule reads it. `ruleSet` is the
 * whole rule set unless a test compares against another.
 */
export function extractClaims(text: string, context: ClauseContext, ruleSet: readonly ClaimRule[] = RULES): Claim[] {
  const claims = new Map<string, Claim>();
  const body = text.slice(0, MAX_CHARS).normalize('NFKC');
  const rules = rulesFor(body.replace(/[’]/g, "'"), ruleSet);
  // Most facts state nothing the rules read: then the clauses need not be read at all.
  if (rules.length === 0) return [];
  for (const clause of clausesOf(body, context)) {
    const lower = clause.text.toLowerCase();
    for (const rule of rules) {
      if (!rule.mayMatch(lower)) continue;
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
