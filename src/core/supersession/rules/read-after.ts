import type { RuleMatch } from '../claim.js';
import { matchesOf } from '../phrases.js';

/** What a rule reads after its predicate: the value and what it is the value of. */
export type ReadValue = (rest: string, match: RegExpExecArray) => Omit<RuleMatch, 'index'> | undefined;

/**
 * Every place `predicate` matches in `clause`, with the value `read` finds right after it.
 * The predicate is found case-insensitively; the readers decide what a value looks like.
 */
export function readAfter(clause: string, predicate: RegExp, read: ReadValue): RuleMatch[] {
  const out: RuleMatch[] = [];
  for (const match of matchesOf(predicate, clause)) {
    const found = read(clause.slice(match.index + match[0].length), match);
    if (found && found.value.trim() !== '') out.push({ index: match.index, ...found });
  }
  return out;
}
