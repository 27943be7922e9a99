/** Where someone lives: "lives in", "moved to", "relocated", "is based in", "she's in Valencia now". */
import type { Family } from '../family.js';

export const residence: Family = {
  name: 'residence',
  keyMatch: 'exact',
  value: 'place',
  key: 'none',
  states: {
    live: ['in', 'at'],
    reside: ['in', 'at'],
    move: ['to', 'back to', 'over to', 'out to'],
    relocate: ['to', ''],
    settle: ['in', 'down in'],
    emigrate: ['to'],
    immigrate: ['to'],
    base: ['in', 'out of'],
    rent: ['in'],
    stay: ['in'],
    go: ['back home to', 'home to', 'back to'],
    head: ['back to', 'home to'],
    return: ['to', 'home to'],
  },
  ends: { 'move out': ['of'], 'move away': ['from'] },
  afterBe: ['in', 'based in', 'back in', 'living in', 'now in', 'home in', 'settled in'],
  nouns: ['home', 'hometown', 'city', 'address', 'place'],
  onNegation: 'negate',
};
