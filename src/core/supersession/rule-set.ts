/**
 * The rule set, in one place: each concern is a file under `rules/`, small and conservative.
 * Adding a concern is adding a rule here; the extractor and the decision do not change.
 */
import type { ClaimRule, FamilyPolicy } from './claim.js';
import { amountRule } from './rules/amount.js';
import { configRule } from './rules/config-value.js';
import { dietRule } from './rules/diet.js';
import { ownershipRule } from './rules/ownership.js';
import { preferenceRule } from './rules/preference.js';
import { projectToolsRule } from './rules/project-tools.js';
import { relationshipRule } from './rules/relationship.js';
import { residenceRule } from './rules/residence.js';
import { scheduleRule } from './rules/schedule.js';
import { workRule } from './rules/work.js';

/** Every rule, in the order they read a clause. */
export const RULES: readonly ClaimRule[] = [
  residenceRule,
  workRule,
  relationshipRule,
  preferenceRule,
  dietRule,
  ownershipRule,
  amountRule,
  scheduleRule,
  projectToolsRule,
  configRule,
];

/** How each family compares keys, from the rules that declare it. */
export const FAMILIES: ReadonlyMap<string, FamilyPolicy> = new Map(
  RULES.flatMap((rule) => Object.entries(rule.families)),
);

/** Families about the user's shared world, where "I" and "we" are one subject (the scope's owner). */
export const SHARED_FAMILIES: ReadonlySet<string> = new Set(['tool', 'setting', 'schedule', 'version', 'amount']);
