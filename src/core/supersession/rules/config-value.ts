/**
 * Settings and contact details: "the API base URL is now https://api.example.com/v2",
 * "our staging port is 8081", "the deploy branch changed to release", "my email is now
 * sam@example.org", "set the timeout to 30 s". The key ends in a settings word (url, port,
 * branch, email, …), so "the weather is nice" is not read.
 */
import type { ClaimRule } from '../claim.js';
import { containsAny, normaliseValue, valueAt } from '../phrases.js';
import { readAfter } from './read-after.js';

const SETTING_WORD =
  'url|urls|uri|endpoint|base url|host|hostname|domain|port|path|directory|folder|dir|branch|default branch|region|zone|bucket|timeout|limit|quota|cron|schedule expression|time zone|timezone|locale|language setting|model|api version|webhook|channel|ip|ip address|server|cluster|namespace|database name|db name|schema|email|email address|e-mail|phone number|mobile number|address|mailing address|username|handle|user name|account|account id|project id|org|organization|workspace|plan|tier|pricing plan|seat count|shell|theme|font|keyboard layout|editor theme|password manager';
const KEY = String.raw`((?:[\p{L}\p{N}-]+\s+){0,3}?(?:${SETTING_WORD}))`;
const IS = new RegExp(
  String.raw`(?<=\b(?:the|my|our|his|her|their|its|this|that|\p{L}+'s)\s+)${KEY}\s+(?:has\s+changed\s+to|was\s+changed\s+to|was\s+moved\s+to|is\s+set\s+to|was\s+set\s+to|now\s+points\s+to|has\s+been|is\s+now|now\s+is|changed\s+to|moved\s+to|should\s+be|will\s+be|points\s+to|lives\s+at|became|is|are)\s+(?:now\s+)?`,
  'giu',
);
const SET = new RegExp(
  String.raw`\b(?:set|changed|updated|moved|switched|pointed|renamed|bumped|raised|lowered)\s+(?:the|my|our|its)\s+${KEY}\s+to\s+`,
  'giu',
);

/** A setting's value: a URL, address or token kept whole, else a short phrase. */
function settingValue(rest: string): string | undefined {
  const token = /^(?:`([^`]{1,200})`|"([^"]{1,200})"|(\S*[/@:.]\S*[^\s.,;:!?)]))/u.exec(rest.trimStart());
  const value = token ? (token[1] ?? token[2] ?? token[3]) : valueAt(rest, 4);
  if (
    !value ||
    /^(?:not|no|unknown|unclear|the\s+same|same|set|changed|broken|down|slow|fine|ok|okay|good|bad)$/iu.test(value)
  )
    return undefined;
  return value;
}

/** Settings of a project and a person's contact details. */
export const configRule: ClaimRule = {
  name: 'setting',
  families: { setting: { keyMatch: 'exact' } },
  onNegation: 'skip',
  // IS and SET both name the setting (KEY).
  mayMatch: containsAny(SETTING_WORD.split('|')),
  match(clause) {
    const read = (rest: string, match: RegExpExecArray) => {
      const value = settingValue(rest);
      const key = normaliseValue(match[1] ?? '');
      return value && key ? { family: 'setting', key, value } : undefined;
    };
    return [...readAfter(clause, IS, read), ...readAfter(clause, SET, read)];
  },
};
