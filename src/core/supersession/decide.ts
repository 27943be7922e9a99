/**
 * When a newer claim makes an older one no longer current. Conservative by construction:
 * another subject, another attribute, or a value that only adds detail ("Lisbon" →
 * "Lisbon, Portugal") never supersedes.
 */
import type { Claim } from './claim.js';
import { FAMILY_BY_NAME } from './reading/families/index.js';
import { amountNumber, valueWords } from './values-compare.js';

/** Whether two keys of `family` name one attribute (equal, or for `subset` families one inside the other). */
export function sameKey(family: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (FAMILY_BY_NAME.get(family)?.keyMatch !== 'subset' || a === '' || b === '') return false;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const words = new Set(valueWords(large));
  return valueWords(small).every((word) => words.has(word));
}

/** Whether two values are the same (equal, the same amount, or one a more detailed form of the other). */
export function sameValue(family: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (family === 'amount') {
    const [x, y] = [amountNumber(a), amountNumber(b)];
    return x !== undefined && x === y;
  }
  if (family === 'version') return a.replace(/^v/u, '') === b.replace(/^v/u, '');
  const [wa, wb] = [valueWords(a), valueWords(b)];
  if (wa.length === 0 || wb.length === 0) return false;
  const [small, large] = wa.length <= wb.length ? [wa, new Set(wb)] : [wb, new Set(wa)];
  return small.every((word) => large.has(word));
}

/** Why a newer claim ends an older one, and the claim the newer memory takes from it. */
export interface Superseding {
  reason: string;
  /**
   * When the newer claim named no family ("left Barcelona", "switched from X to Y" of an unknown
   * kind): the older claim's slot with the newer value, kept on the newer memory.
   */
  adopted?: Claim;
}

/**
 * Why `newer` makes `older` no longer current, or undefined when it does not. Both claims
 * must be about the same subject; the caller has already ordered them in time.
 */
export function conflict(newer: Claim, older: Claim): Superseding | undefined {
  if (newer.subject !== older.subject || older.family === '*') return undefined;
  const attribute = older.key === '' ? older.family : `${older.family} of ${older.key}`;
  // "Left Barcelona", "sold the Volvo": ends the value it names, whatever its family.
  if (newer.family === '*' && newer.negated)
    return !older.negated && sameValue(older.family, older.value, newer.value)
      ? { reason: `${newer.rule}: ${attribute} is no longer ${older.value}` }
      : undefined;
  // A switch names what it replaces: the claim of that value about the subject ends.
  if (
    newer.from !== undefined &&
    !older.negated &&
    (newer.family === '*' || newer.family === older.family) &&
    sameValue(older.family, older.value, newer.from)
  )
    return {
      reason: `${newer.rule}: switched from ${older.value} to ${newer.value}`,
      ...(newer.family === '*'
        ? { adopted: { ...newer, family: older.family, key: older.key, rule: older.rule } }
        : {}),
    };
  if (newer.family !== older.family || !sameKey(newer.family, newer.key, older.key)) return undefined;
  if (newer.negated) {
    // "The standup is cancelled": every time it had.
    if (newer.value === '*') return older.negated ? undefined : { reason: `${newer.rule}: ${attribute} is cancelled` };
    const endsAny = FAMILY_BY_NAME.get(newer.family)?.negationEndsAny === true;
    return !older.negated && (endsAny || sameValue(newer.family, newer.value, older.value))
      ? { reason: `${newer.rule}: ${attribute} is no longer ${older.value}` }
      : undefined;
  }
  if (older.negated)
    return older.value === '*' || sameValue(newer.family, newer.value, older.value)
      ? { reason: `${newer.rule}: ${attribute} is ${newer.value} again` }
      : undefined;
  return sameValue(newer.family, newer.value, older.value)
    ? undefined
    : { reason: `${newer.rule}: ${attribute} changed from ${older.value} to ${newer.value}` };
}

/** The first reason any of `newer` supersedes any of `older`, or undefined. */
export function supersedingReason(newer: readonly Claim[], older: readonly Claim[]): Superseding | undefined {
  for (const claim of newer)
    for (const old of older) {
      const found = conflict(claim, old);
      if (found) return found;
    }
  return undefined;
}
