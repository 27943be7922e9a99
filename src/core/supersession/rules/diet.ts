/**
 * Diet: "is vegetarian", "went vegan", "follows a keto diet", "eats meat again", "stopped
 * being vegetarian". One diet at a time.
 */
import type { ClaimRule } from '../claim.js';
import { containsAny } from '../phrases.js';
import { readAfter } from './read-after.js';

const DIETS = 'vegan|vegetarian|pescatarian|pescetarian|keto|paleo|carnivore|flexitarian|omnivore|raw vegan|fruitarian';
const IS = new RegExp(
  String.raw`\b(?:is|am|'m|are|'re|went|goes|going|became|become|has\s+become|turned|now|eats|eat|eating)\s+(?:now\s+|fully\s+|strictly\s+|mostly\s+|a\s+|an\s+)*(?=(?:${DIETS})\b)`,
  'giu',
);
const FOLLOWS = new RegExp(
  String.raw`\b(?:follows?|following|on|started|starts|doing|does|tried|trying)\s+(?:a|an|the)\s+(?=(?:${DIETS}|low-carb|gluten-free|mediterranean|plant-based)\s+diet\b)`,
  'giu',
);
const STOPPED = new RegExp(
  String.raw`\b(?:stopped|quit|gave\s+up)\s+(?:being\s+)?(?:a\s+|an\s+)?(?=(?:${DIETS})\b)`,
  'giu',
);
const MEAT = /\b(?:eats?|eating|started\s+eating)\s+(?:meat|everything|anything)\b|\bno\s+dietary\s+restrictions\b/giu;
const DIET_AT = new RegExp(String.raw`^(${DIETS}|low-carb|gluten-free|mediterranean|plant-based)\b`, 'iu');

/** Diet. */
export const dietRule: ClaimRule = {
  name: 'diet',
  families: { diet: { keyMatch: 'exact' } },
  onNegation: 'negate',
  // IS and STOPPED need a diet's name, FOLLOWS the word diet, MEAT what is eaten.
  mayMatch: containsAny([...DIETS.split('|'), 'diet', 'meat', 'everything', 'anything']),
  match(clause) {
    const diet = (rest: string) => {
      const value = DIET_AT.exec(rest)?.[1]?.toLowerCase().replace('pescetarian', 'pescatarian');
      return value ? { family: 'diet', key: '', value } : undefined;
    };
    return [
      ...readAfter(clause, IS, diet),
      ...readAfter(clause, FOLLOWS, diet),
      ...readAfter(clause, STOPPED, (rest) => {
        const found = diet(rest);
        return found && { ...found, negated: true };
      }),
      ...readAfter(clause, MEAT, () => ({ family: 'diet', key: '', value: 'omnivore' })),
    ];
  },
};
