/**
 * Amounts and versions: "my rent is $1,800", "rent went up to 2,100 €", "her salary is now
 * 95k", "the price of the plan is $20", "the Pro plan costs $25", "pays 1,200 a month in
 * rent", "we upgraded Node to 22", "we're on Postgres 16", "the app version is 3.2.1". Which
 * amount (rent, salary, the price of what) is the key; a value must contain a number.
 */
import type { ClaimRule } from '../claim.js';
import { CALENDAR_NAME, moneyAt, normaliseValue } from '../phrases.js';
import { roleOf } from './project-tools.js';
import { readAfter } from './read-after.js';

const AMOUNT_NOUN =
  'rent|salary|pay|wage|wages|income|mortgage|budget|price|cost|fee|fees|bill|subscription|rate|hourly rate|day rate|allowance|deposit|tuition|premium|bonus|commission|savings|debt|loan|balance|raise|pension|stipend|tip|quote|offer|valuation';
// Longest first: a regex alternation takes the first that fits ("was" before "was raised to").
const CHANGE = String.raw`(?:got\s+raised\s+to|was\s+raised\s+to|was\s+cut\s+to|was\s+increased\s+to|was\s+reduced\s+to|went\s+up\s+to|went\s+down\s+to|goes\s+up\s+to|has\s+been|is\s+now|are\s+now|now\s+is|rose\s+to|increased\s+to|decreased\s+to|dropped\s+to|fell\s+to|changed\s+to|came\s+to|comes\s+to|will\s+be|is\s+set\s+at|sits\s+at|stands\s+at|became|is|are|was)`;
const OWNED = new RegExp(
  String.raw`(?<!['\p{L}])((?:(?!(?:my|our|his|her|their|its|the|a|an|this|that)\b)[\p{L}-]{2,}\s+){0,2}?(?:${AMOUNT_NOUN}))(?:\s+(?:of|for)\s+(?:the\s+|my\s+|our\s+)?([\p{L}\p{N} -]{1,30}?))?\s+${CHANGE}\s+(?:now\s+)?`,
  'giu',
);
const COSTS =
  /\b(?!(?:the|my|our|a|an|it|this|that|which)\b)([\p{L}\p{N}-]+(?:\s[\p{L}\p{N}-]+){0,2}?)\s+(?:costs?|now\s+costs?|is\s+priced\s+at|sells\s+for|goes\s+for)\s+(?:now\s+)?/giu;
const PAYS = /\b(?:pays?|paying|paid)\s+(?=(?:about\s+|around\s+)?(?:[$€£¥₹]|\d))/giu;
const EARNS = /\b(?:earns?|earning|makes?|making)\s+(?=(?:about\s+|around\s+)?(?:[$€£¥₹]|\d))/giu;

const VERSION_TOOL = String.raw`([\p{L}][\p{L}\p{N}.+#-]{0,24}(?:\s[\p{Lu}][\p{L}\p{N}.+#-]{0,24})?)`;
const VERSION = String.raw`v?(\d+(?:\.\d+){0,3}(?:-[\p{L}\p{N}.]+)?)`;
const UPGRADED = new RegExp(
  String.raw`\b(?:upgraded|updated|bumped|moved|migrated|downgraded|pinned|upgrading|updating|bumping)\s+${VERSION_TOOL}\s+(?:from\s+${VERSION}\s+)?to\s+(?:version\s+)?${VERSION}\b`,
  'giu',
);
const ON = new RegExp(
  String.raw`\b(?:on|uses?|using|runs?\s+on|running|requires?|targets?)\s+${VERSION_TOOL}\s+(?:version\s+)?${VERSION}\b`,
  'gu',
);
const IS_VERSION = new RegExp(
  String.raw`\b${VERSION_TOOL}\s+version\s+(?:is\s+)?(?:now\s+)?${VERSION}\b|\bversion\s+of\s+${VERSION_TOOL}\s+is\s+(?:now\s+)?${VERSION}\b`,
  'giu',
);

function amount(key: string, rest: string) {
  const money = moneyAt(rest);
  return money ? { family: 'amount', key: normaliseValue(key), value: money } : undefined;
}

/** Amounts of money and version numbers. */
export const amountRule: ClaimRule = {
  name: 'amount',
  families: { amount: { keyMatch: 'subset' }, version: { keyMatch: 'exact' } },
  onNegation: 'skip',
  // Every amount is read by moneyAt and every version by VERSION: both need a digit.
  mayMatch: (clause) => /[0-9]/u.test(clause),
  match(clause) {
    const versions = [
      ...[...clause.matchAll(UPGRADED)].map((match) => ({ match, tool: match[1], version: match[3] })),
      // "on Node 22", "runs on Postgres 16": a named product or a catalogued tool, never "on host 5".
      ...[...clause.matchAll(ON)]
        .filter((match) => /^\p{Lu}/u.test(match[1] ?? '') || roleOf((match[1] ?? '').toLowerCase()) !== undefined)
        .map((match) => ({ match, tool: match[1], version: match[2] })),
      ...[...clause.matchAll(IS_VERSION)].map((match) => ({
        match,
        tool: match[1] ?? match[3],
        version: match[2] ?? match[4],
      })),
    ].flatMap(({ match, tool, version }) =>
      tool &&
      version &&
      !CALENDAR_NAME.test(tool) &&
      !/^(?:the|a|an|my|our|it|this|that|version|day|page|step|level|floor|line|room|chapter|week|month|year|top|about|around|over|under|only|just|at|in|by|for)$/iu.test(
        tool,
      )
        ? [{ index: match.index, family: 'version', key: normaliseValue(tool), value: version }]
        : [],
    );
    return [
      ...readAfter(clause, OWNED, (rest, match) =>
        amount(match[2] ? `${match[1]} of ${match[2]}` : (match[1] ?? ''), rest),
      ),
      ...readAfter(clause, COSTS, (rest, match) => amount(`price of ${match[1] ?? ''}`, rest)),
      ...readAfter(clause, PAYS, (rest) => {
        const key = /\b(?:in|for|on)\s+(rent|mortgage|tuition|insurance|childcare|daycare)\b/iu.exec(rest)?.[1];
        return key ? amount(key, rest) : undefined;
      }),
      ...readAfter(clause, EARNS, (rest) => amount('salary', rest)),
      ...versions,
    ];
  },
};
