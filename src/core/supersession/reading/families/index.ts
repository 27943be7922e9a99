/** Every family, in the order a clause is read; adding one is a file here and a row below. */
import type { Family } from '../family.js';
import { amount } from './amount.js';
import { diet } from './diet.js';
import { owns } from './owns.js';
import { favourite, stance } from './preference.js';
import { relationship } from './relationship.js';
import { residence } from './residence.js';
import { schedule } from './schedule.js';
import { setting } from './setting.js';
import { tool } from './tool.js';
import { work } from './work.js';

export const FAMILY_LIST: readonly Family[] = [
  residence,
  work,
  relationship,
  stance,
  favourite,
  diet,
  amount,
  schedule,
  owns,
  tool,
  setting,
];

/** Families by name. */
export const FAMILY_BY_NAME: ReadonlyMap<string, Family> = new Map(FAMILY_LIST.map((family) => [family.name, family]));
