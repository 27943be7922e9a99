/**
 * Where someone lives: "lives in Vienna", "is based in Lisbon", "moved to Berlin",
 * "relocated from Vienna to Lisbon", "no longer lives in Rome". The place must be a proper
 * name, so "lives in a small flat" or "moved to Thursday" are not read.
 */
import type { ClaimRule } from '../claim.js';
import { containsAny, nameAt } from '../phrases.js';
import { readAfter } from './read-after.js';

const LIVES =
  /\b(?:lives?|living|lived|resides?|residing|settled|stays|is based|am based|are based|'m based|'re based|based|home is|home is now|hometown is)\s+(?:now\s+)?(?:in|at)\s+/giu;
const MOVED =
  /\b(?:moved|moving|moves|relocated|relocating|relocates|emigrated|immigrated)\s+(?:back\s+)?(?:from\s+\p{L}[\p{L} .'-]{0,40}?\s+)?to\s+/giu;
const MOVED_OUT = /\b(?:moved|moving|moves)\s+(?:out\s+of|away\s+from)\s+/giu;

/** Where someone lives. */
export const residenceRule: ClaimRule = {
  name: 'residence',
  families: { residence: { keyMatch: 'exact' } },
  onNegation: 'negate',
  // LIVES, MOVED and MOVED_OUT each open with one of these.
  mayMatch: containsAny(['liv', 'resid', 'settled', 'stays', 'based', 'home', 'mov', 'relocat', 'emigrat', 'immigrat']),
  match(clause) {
    const place = (rest: string) => {
      const name = nameAt(rest);
      return name ? { family: 'residence', key: '', value: name } : undefined;
    };
    const moved = readAfter(clause, MOVED, (rest) => {
      const found = place(rest);
      const from = /\bfrom\s+(\p{Lu}[\p{L} .'-]{0,40}?)\s+to\s+$/u.exec(clause.slice(0, clause.length - rest.length));
      return found && from?.[1] ? { ...found, from: from[1] } : found;
    });
    // "moved out of Vienna" says only where they no longer live.
    const out = readAfter(clause, MOVED_OUT, (rest) => {
      const found = place(rest);
      return found && { ...found, negated: true };
    });
    return [...readAfter(clause, LIVES, place), ...moved, ...out];
  },
};
