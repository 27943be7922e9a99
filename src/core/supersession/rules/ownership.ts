/**
 * Owned things: "drives a Honda Civic", "my phone is a Pixel 8", "bought a Tesla Model 3",
 * "got a new MacBook Air", "sold my bike". What kind of thing it is comes from the words
 * (car, phone, laptop…) or a brand, so "bought a Pixel" and "my phone is an iPhone" are one
 * attribute, and "has a dog" is none.
 */
import type { ClaimRule, RuleMatch } from '../claim.js';
import { containsAny, normaliseValue, objectAt } from '../phrases.js';
import { readAfter } from './read-after.js';

const KINDS: Record<string, readonly string[]> = {
  car: [
    'car',
    'vehicle',
    'suv',
    'truck',
    'pickup',
    'van',
    'tesla',
    'toyota',
    'honda',
    'bmw',
    'audi',
    'ford',
    'volkswagen',
    'vw',
    'mercedes',
    'volvo',
    'subaru',
    'kia',
    'hyundai',
    'mazda',
    'nissan',
    'porsche',
    'fiat',
    'renault',
    'peugeot',
    'skoda',
    'prius',
    'civic',
    'corolla',
    'jeep',
    'chevrolet',
    'chevy',
    'lexus',
    'mini cooper',
    'polestar',
    'rivian',
    'golf',
  ],
  motorcycle: ['motorcycle', 'motorbike', 'scooter', 'vespa', 'ducati', 'harley'],
  phone: ['phone', 'smartphone', 'iphone', 'pixel', 'galaxy', 'oneplus', 'fairphone', 'xperia', 'motorola'],
  laptop: ['laptop', 'notebook', 'macbook', 'thinkpad', 'chromebook', 'xps', 'zenbook', 'framework laptop'],
  computer: ['computer', 'desktop', 'pc', 'imac', 'mac mini', 'mac studio', 'workstation'],
  tablet: ['tablet', 'ipad'],
  bike: ['bike', 'bicycle', 'e-bike', 'ebike'],
  watch: ['watch', 'smartwatch', 'apple watch', 'garmin', 'fitbit'],
  camera: ['camera', 'dslr', 'fujifilm', 'leica'],
  headphones: ['headphones', 'earbuds', 'airpods'],
  console: ['console', 'playstation', 'ps5', 'xbox', 'nintendo switch', 'steam deck'],
  tv: ['tv', 'television'],
};

const NOT_A_THING =
  /^(?:to|from|with|at|in|on|into|home|around|back|lot|bit|few|couple|lot of|while|way|long|far|fast|slowly|there|here|it|them|one)\b/iu;

function kindOf(thing: string): string | undefined {
  const lower = ` ${thing.toLowerCase()} `;
  for (const [kind, words] of Object.entries(KINDS))
    if (words.some((word) => lower.includes(` ${word} `) || lower.includes(` ${word}s `))) return kind;
  return undefined;
}

const DRIVES = /\b(?:drives?|driving|drove)\s+(?:(?:a|an|the|my|his|her|their)\s+)?/giu;
const GOT =
  /\b(?:owns?|owning|has|have|had|bought|buys|buying|got|gets|purchased|ordered|is\s+getting|just\s+got|upgraded\s+to|switched\s+to|replaced\s+(?:it|(?:my|his|her|their)\s+[\p{L}]+)\s+with|traded\s+[\p{L} ]{1,30}?\s+for)\s+(?:(?:a|an|the|my|his|her|their)\s+)?/giu;
const IS =
  /\b((?:car|vehicle|phone|smartphone|laptop|computer|tablet|bike|bicycle|watch|camera|headphones|console|tv|motorcycle|motorbike))\s+(?:is\s+now|now\s+is|is)\s+(?:(?:a|an|the)\s+)?/giu;
const SOLD =
  /\b(?:sold|sells|selling|gave\s+away|got\s+rid\s+of|totaled|totalled|lost|crashed)\s+(?:my|his|her|their|the|our)\s+/giu;

/** Owned things, one per kind. */
export const ownershipRule: ClaimRule = {
  name: 'ownership',
  families: { owns: { keyMatch: 'exact' } },
  onNegation: 'skip',
  // DRIVES, GOT, IS (a kind of thing) and SOLD each need one of these.
  mayMatch: containsAny([
    ...['driv', 'drov', 'own', 'has', 'have', 'had', 'bought', 'buy', 'got', 'gets', 'purchased', 'ordered'],
    ...['getting', 'upgraded', 'switched', 'replaced', 'traded'],
    ...['car', 'vehicle', 'phone', 'smartphone', 'laptop', 'computer', 'tablet', 'bike', 'bicycle', 'watch', 'camera'],
    ...['headphones', 'console', 'tv', 'motor'],
    ...['sold', 'sell', 'gave', 'rid', 'total', 'lost', 'crashed'],
  ]),
  match(clause) {
    const thing = (kind?: string) => (rest: string) => {
      const value = normaliseValue(
        objectAt(rest.replace(/^(?:new|used|second-hand|brand-new|secondhand)\s+/iu, ''), 5),
      );
      const of = kind ?? kindOf(value);
      if (!of || !value || NOT_A_THING.test(value)) return undefined;
      // "has a car" names no particular car: nothing to compare.
      if ((KINDS[of] ?? []).includes(value.replace(/s$/u, ''))) return undefined;
      return { family: 'owns', key: of, value };
    };
    const sold: RuleMatch[] = readAfter(clause, SOLD, (rest) => {
      const found = thing()(rest);
      return found && { ...found, negated: true };
    });
    return [
      ...readAfter(clause, DRIVES, thing('car')),
      ...readAfter(clause, GOT, thing()),
      ...readAfter(clause, IS, (rest, match) => thing(kindOf(match[1] ?? ''))(rest)),
      ...sold,
    ];
  },
};
