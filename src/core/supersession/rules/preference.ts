/**
 * Likes and dislikes: "loves spicy food", "is a big fan of jazz", "hates mornings", "doesn't
 * like coffee anymore", "can't stand emoji", and "favourite X is Y". The stance is per object:
 * "likes tea" and "dislikes coffee" are about two things; "likes tea" and "no longer likes tea"
 * are about one.
 */
import type { ClaimRule } from '../claim.js';
import { containsAny, normaliseValue, objectAt, valueAt } from '../phrases.js';
import { readAfter } from './read-after.js';

const LIKE =
  /(?<!\b(?:would|'d|looks|look|looked|feels|feel|felt|seems|sounds|something|just|more|things)\s)\b(?:likes?|loves?|enjoys?|adores?|prefers?|is\s+into|am\s+into|'m\s+into|are\s+into|is\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|am\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|'m\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|is\s+obsessed\s+with|'m\s+obsessed\s+with|is\s+crazy\s+about)\s+/giu;
const DISLIKE =
  /\b(?:dislikes?|hates?|detests?|loathes?|can't\s+stand|cannot\s+stand|can\s+not\s+stand|is\s+not\s+(?:a\s+)?fan\s+of|isn't\s+(?:a\s+)?fan\s+of|am\s+not\s+(?:a\s+)?fan\s+of|'m\s+not\s+(?:a\s+)?fan\s+of|(?:is|am|'m|are|got|grew|has\s+grown|have\s+grown)\s+(?:now\s+)?(?:tired|sick)\s+of|stopped\s+(?:liking|enjoying))\s+/giu;
const FAVOURITE = /\bfavou?rite\s+([\p{L} -]{2,30}?)\s+(?:is|are)\s+(?:now\s+)?/giu;

/** The object of a stance, or undefined when it is a verb ("to go", "doing") or nothing. */
function object(rest: string): string | undefined {
  if (/^(?:to|it|that|this|when|how|what|the\s+idea)\b/iu.test(rest)) return undefined;
  const head = rest.split(/\s(?:over|to|rather than|instead of|more than|than)\s/iu)[0] ?? rest;
  const value = normaliseValue(objectAt(head, 5).replace(/\s+(?:a lot|very much|so much|a bit|anymore)$/iu, ''));
  return value.length >= 2 ? value : undefined;
}

/** Likes, dislikes and favourites. */
export const preferenceRule: ClaimRule = {
  name: 'preference',
  families: { stance: { keyMatch: 'exact' }, favourite: { keyMatch: 'exact' } },
  onNegation: 'flip',
  flip: (value) => (value === 'like' ? 'dislike' : undefined),
  // LIKE, DISLIKE and FAVOURITE each need one of these.
  mayMatch: containsAny([
    ...['like', 'love', 'enjoy', 'ador', 'prefer', 'into', 'fan', 'obsessed', 'crazy'],
    ...['dislike', 'hate', 'detest', 'loath', 'stand', 'tired', 'sick', 'stopped', 'favo'],
  ]),
  match(clause) {
    const stance = (value: string) => (rest: string) => {
      const about = object(rest);
      return about ? { family: 'stance', key: about, value } : undefined;
    };
    return [
      ...readAfter(clause, LIKE, stance('like')),
      ...readAfter(clause, DISLIKE, stance('dislike')),
      ...readAfter(clause, FAVOURITE, (rest, match) => {
        const value = valueAt(rest, 5);
        return match[1] ? { family: 'favourite', key: normaliseValue(match[1]), value } : undefined;
      }),
    ];
  },
};
