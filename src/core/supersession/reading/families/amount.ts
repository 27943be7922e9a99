/** Amounts with a unit: rent, salary, budget, price, weight ("rent went up to €1,600", "I now earn 95k"). */
import type { Family } from '../family.js';

export const amount: Family = {
  name: 'amount',
  keyMatch: 'subset',
  value: 'amount',
  key: 'noun',
  states: { earn: [''], make: [''], pay: [''], weigh: [''], cost: [''], charge: [''], run: [''], commute: [] },
  nouns: [
    ...['rent', 'salary', 'pay', 'income', 'wage', 'rate', 'budget', 'price', 'cost', 'fee', 'mortgage', 'bill'],
    ...['weight', 'savings', 'debt', 'allowance', 'bonus', 'raise', 'limit', 'quota', 'commute', 'distance', 'goal'],
    ...[
      'subscription',
      'membership',
      'premium',
      'deposit',
      'loan',
      'stipend',
      'pension',
      'target',
      'tuition',
      'compensation',
    ],
  ],
  shared: true,
  onNegation: 'skip',
};

/** What a verb with no attribute noun earns or pays: "I earn 95k" is a salary. */
export const AMOUNT_KEY_OF_VERB: Readonly<Record<string, string>> = {
  earn: 'salary',
  make: 'salary',
  weigh: 'weight',
  commute: 'commute',
  cost: 'price',
  charge: 'price',
};
