/** What someone eats: vegetarian, vegan, keto; "gave up meat", "eats fish again". */
import type { Family } from '../family.js';

export const diet: Family = {
  name: 'diet',
  keyMatch: 'exact',
  value: 'thing',
  key: 'none',
  statuses: {
    vegetarian: 'vegetarian',
    veggie: 'vegetarian',
    vegan: 'vegan',
    pescatarian: 'pescatarian',
    pescetarian: 'pescatarian',
    keto: 'keto',
    paleo: 'paleo',
    carnivore: 'carnivore',
    omnivore: 'omnivore',
    flexitarian: 'flexitarian',
    'gluten-free': 'gluten-free',
    'dairy-free': 'dairy-free',
    'plant-based': 'vegan',
  },
  nouns: ['diet'],
  onNegation: 'negate',
};

/** Foods whose giving up or taking up states a diet: "stopped eating meat", "eats fish again". */
export const DIET_FOODS: readonly string[] = [
  'meat',
  'fish',
  'dairy',
  'gluten',
  'eggs',
  'pork',
  'beef',
  'chicken',
  'seafood',
  'sugar',
  'carbs',
  'animal products',
];
