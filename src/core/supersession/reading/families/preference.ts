/** Likes and dislikes of a thing ("loves sushi", "can't stand jazz anymore"), and favourites ("my favourite band is X"). */
import type { Family } from '../family.js';

export const stance: Family = {
  name: 'stance',
  keyMatch: 'exact',
  value: 'thing',
  key: 'object',
  states: {
    like: [''],
    love: [''],
    enjoy: [''],
    adore: [''],
    prefer: [''],
    hate: [''],
    dislike: [''],
    detest: [''],
    'can not stand': [''],
    'be into': [''],
    'be a fan of': [''],
    'be obsessed with': [''],
    'be sick of': [''],
    'be tired of': [''],
    'get into': [''],
  },
  onNegation: 'flip',
};

export const favourite: Family = {
  name: 'favourite',
  keyMatch: 'subset',
  value: 'thing',
  key: 'noun',
  nouns: ['favourite', 'favorite', 'go-to', 'preferred'],
  onNegation: 'skip',
};

/** The stance a liking lemma states. */
export const STANCE_OF: Readonly<Record<string, 'like' | 'dislike'>> = {
  like: 'like',
  love: 'like',
  enjoy: 'like',
  adore: 'like',
  prefer: 'like',
  'be into': 'like',
  'be a fan of': 'like',
  'be obsessed with': 'like',
  'get into': 'like',
  hate: 'dislike',
  dislike: 'dislike',
  detest: 'dislike',
  'can not stand': 'dislike',
  'be sick of': 'dislike',
  'be tired of': 'dislike',
};
