/**
 * Schedules: "the weekly sync is on Tuesdays", "standup moved to 10am", "the dentist
 * appointment was rescheduled to May 3", "our trip to Japan is March 3–10", "the launch is
 * cancelled". The event (sync, trip to Japan) is the key; a value must name a time, or be a
 * cancellation.
 */
import type { ClaimRule, RuleMatch } from '../claim.js';
import { containsAny, normaliseValue, timeAt } from '../phrases.js';
import { readAfter } from './read-after.js';

const EVENT_WORD =
  'meeting|meetings|sync|standup|stand-up|call|review|appointment|class|classes|lesson|lessons|session|trip|flight|party|dinner|lunch|breakfast|launch|release|deadline|demo|interview|wedding|vacation|holiday|holidays|visit|practice|game|match|concert|checkup|check-up|retro|retrospective|1:1|one-on-one|workshop|conference|exam|presentation|ceremony|shift|training|rehearsal|recital|surgery|reunion|offsite|kickoff|kick-off|planning|sprint|course|webinar|party|birthday party|book club|date night|yoga|gym|therapy|sauna|run|ride';
const EVENT = String.raw`((?:[\p{L}\p{N}'-]+\s+){0,3}?(?:${EVENT_WORD})(?:\s+(?:to|with|in|at|for)\s+[\p{L}\p{N}'-]+(?:\s[\p{Lu}][\p{L}'-]+)?)?)`;
const MOVED = new RegExp(
  String.raw`\b${EVENT}\s+(?:is\s+|was\s+|has\s+been\s+|got\s+|will\s+be\s+|now\s+)?(?:now\s+)?(?:moved|moving|rescheduled|pushed(?:\s+back)?|postponed|changed|shifted|brought\s+forward|bumped|delayed)\s+(?:back\s+)?(?:to|until|till)\s+`,
  'giu',
);
const IS = new RegExp(
  String.raw`\b${EVENT}\s+(?:is|are|was|will\s+be|happens|happen|takes\s+place|take\s+place|is\s+scheduled|are\s+scheduled|is\s+planned|is\s+booked|starts|start|runs|run|falls)\s+(?:now\s+)?(?:scheduled\s+|planned\s+|booked\s+)?(?:for\s+|on\s+|at\s+|from\s+|every\s+|in\s+)?`,
  'giu',
);
const CANCELLED = new RegExp(
  String.raw`\b${EVENT}\s+(?:is|was|has\s+been|got|will\s+be|'s)\s+(?:now\s+)?(?:cancell?ed|called\s+off|scrapped|off)\b`,
  'giu',
);
const CANCEL = new RegExp(
  String.raw`\b(?:cancell?ed|called\s+off|scrapped)\s+(?:the|my|our|his|her|their|this|next)\s+${EVENT}`,
  'giu',
);

const DETERMINERS = /^(?:(?:the|my|our|his|her|their|this|that|next|upcoming|a|an|weekly|regular|usual)\s+)+/iu;

function eventKey(phrase: string): string | undefined {
  const key = normaliseValue(phrase.replace(DETERMINERS, ''));
  return key === '' ? undefined : key;
}

/** When recurring and planned events happen, and which were cancelled. */
export const scheduleRule: ClaimRule = {
  name: 'schedule',
  families: { schedule: { keyMatch: 'subset' } },
  onNegation: 'skip',
  // Every pattern names the event (EVENT).
  mayMatch: containsAny(EVENT_WORD.split('|')),
  match(clause) {
    const when = (rest: string, match: RegExpExecArray) => {
      const key = eventKey(match[1] ?? '');
      const time = timeAt(rest);
      return key && time ? { family: 'schedule', key, value: normaliseValue(time) } : undefined;
    };
    const cancelled: RuleMatch[] = [...clause.matchAll(CANCELLED), ...clause.matchAll(CANCEL)].flatMap((match) => {
      const key = eventKey(match[1] ?? '');
      return key ? [{ index: match.index, family: 'schedule', key, value: 'cancelled', subject: 'we' }] : [];
    });
    // An event is its own subject for everyone in the scope: "the sync" said by anyone.
    const timed: RuleMatch[] = [...readAfter(clause, MOVED, when), ...readAfter(clause, IS, when)].map((found) => ({
      ...found,
      subject: 'we',
    }));
    return [...timed, ...cancelled];
  },
};
