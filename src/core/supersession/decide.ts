/**
 * When a newer claim makes an older one no longer current. Conservative by construction:
 * another subject, another attribute, or a value that only adds detail ("Lisbon" →
 * "Lisbon, Portugal") never supersedes.
 */
import type { Claim } from './claim.js';
import { amountNumber, valueWords } from './phrases.js';
import { FAMILIES } from './rule-set.js';

function sameKey(family: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (FAMILIES.get(family)?.keyMatch !== 'subset' || a === '' || b === '') return false;
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

/**
 * Why `newer` makes `older` no longer current, or undefined when it does not. Both claims
 * must be about the same subject; the caller has already ordered them in time.
 */
export function conflict(newer: Claim, older: Claim): string | undefined {
  if (newer.subject !== older.subject) return undefined;
  // A switch names what it replaces: any claim of that value about the subject ends.
  if (newer.from !== undefined && !older.negated && sameValue(older.family, older.value, newer.from))
    return `${newer.rule}: switched from ${older.value} to ${newer.value}`;
  if (newer.family !== older.family || !sameKey(newer.family, newer.key, older.key)) return undefined;
  const attribute = newer.key === '' ? newer.family : `${newer.family} of ${newer.key}`;
  if (newer.negated) {
    return !older.negated && sameValue(newer.family, newer.value, older.value)
      ? `${newer.rule}: ${attribute} is no longer ${older.value}`
      : undefined;
  }
  if (older.negated)
    return sameValue(newer.family, newer.value, older.value)
      ? `${newer.rule}: ${attribute} is ${newer.value} again`
      : undefined;
  return sameValue(newer.family, newer.value, older.value)
    ? undefined
    : `${newer.rule}: ${attribute} changed from ${older.value} to ${newer.value}`;
}

/** The first reason any of `newer` supersedes any of `older`, or undefined. */
export function supersedingReason(newer: readonly Claim[], older: readonly Claim[]): string | undefined {
  for (const claim of newer)
    for (const old of older) {
      const reason = conflict(claim, old);
      if (reason) return reason;
    }
  return undefined;
}
