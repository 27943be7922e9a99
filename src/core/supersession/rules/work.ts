/**
 * Employer and job title: "works at Stripe", "joined Acme", "started a new job at Figma",
 * "left Google" (no longer there), "works as a product designer", "was promoted to staff
 * engineer", "is a data scientist at Spotify". Employers must be proper names; titles must
 * end in a job word, so "works at home" or "is a big fan" are not read.
 */
import type { ClaimRule, RuleMatch } from '../claim.js';
import { containsAny, nameAt, valueAt } from '../phrases.js';
import { readAfter } from './read-after.js';

const EMPLOYER =
  /\b(?:works?|working|worked|employed)\s+(?:now\s+)?(?:at|for|by)\s+|\b(?:joined|joins|joining|has joined|will join|is joining)\s+|\b(?:started|starting|starts|began|begins)\s+(?:a\s+)?(?:new\s+)?(?:job|position|role|work|working)\s+(?:at|with|for)\s+|\b(?:got|accepted|took|takes|taking)\s+(?:a|an|the)\s+(?:new\s+)?(?:job|position|role|offer)\s+(?:at|with|from)\s+|\bemployer\s+is\s+(?:now\s+)?|\bhired\s+by\s+/giu;
const LEFT_EMPLOYER =
  /\b(?:left|leaves|leaving|quit|quits|quitting|resigned\s+from|was\s+laid\s+off\s+from|got\s+laid\s+off\s+from|was\s+fired\s+from|retired\s+from)\s+(?=\p{Lu})/giu;

const TITLE_WORD =
  'engineer|developer|programmer|manager|designer|director|lead|scientist|analyst|teacher|nurse|doctor|physician|consultant|architect|intern|ceo|cto|cfo|coo|vp|president|founder|co-founder|accountant|lawyer|attorney|writer|editor|researcher|professor|lecturer|student|chef|cook|pharmacist|therapist|specialist|administrator|admin|officer|coordinator|associate|assistant|technician|mechanic|electrician|plumber|pilot|driver|principal|head of [\\p{L} ]{2,30}|recruiter|salesperson|representative|marketer|strategist|economist|journalist|photographer|artist|musician|dentist|surgeon|veterinarian|vet|paralegal|clerk|cashier|barista|waiter|waitress|librarian|freelancer|contractor|sre|devops|tester|qa|product owner|scrum master|data engineer';
const TITLE = new RegExp(
  String.raw`^(?:a|an|the)?\s*((?:[\p{L}-]+\s+){0,3}?(?:${TITLE_WORD})s?)\b(?=\s*$|\s*[,.;!?]|\s+(?:at|for|with|in|on|since|and|from|now|this|last|next|recently|today|yesterday|earlier|again|after|before|when|because)\b)(?:\s+(?:at|for|with)\s+)?`,
  'iu',
);
const AS_TITLE =
  /\b(?:works?|working|worked|employed|hired|started|starts|joined|joins|serves|serving)\s+(?:now\s+)?as\s+|\b(?:job\s+title|title|role|position|job)\s+is\s+(?:now\s+)?|\b(?:promoted\s+to|became|has\s+become|becomes)\s+|\b(?:is|am|'m|are)\s+(?:now\s+)?(?=(?:a|an|the)\s+)/giu;

function title(rest: string): { title: string; employer?: string } | undefined {
  const match = TITLE.exec(rest);
  if (!match?.[1]) return undefined;
  const after = rest.slice(match[0].length);
  const employer = /\s(?:at|for|with)\s+$/iu.test(match[0]) ? nameAt(after) : undefined;
  return { title: valueAt(match[1], 6), ...(employer ? { employer } : {}) };
}

/** Employer and job title. */
export const workRule: ClaimRule = {
  name: 'work',
  families: { employer: { keyMatch: 'exact' }, 'job title': { keyMatch: 'exact' } },
  onNegation: 'negate',
  // EMPLOYER, LEFT_EMPLOYER and AS_TITLE each need one of these.
  mayMatch: containsAny([
    ...['work', 'employ', 'join', 'job', 'position', 'role', 'offer', 'hired'],
    ...['left', 'leav', 'quit', 'resign', 'laid', 'fired', 'retired'],
    ...['start', 'serv', 'title', 'promot', 'becam', 'becom', 'is', 'am', "'m", 'are'],
  ]),
  match(clause) {
    const employer = (rest: string) => {
      const name = nameAt(rest);
      return name ? { family: 'employer', key: '', value: name } : undefined;
    };
    const titles: RuleMatch[] = [];
    for (const found of readAfter(clause, AS_TITLE, (rest) => {
      const read = title(rest);
      return read
        ? { family: 'job title', key: '', value: read.title, ...(read.employer ? { from: read.employer } : {}) }
        : undefined;
    })) {
      // "is a designer at Figma" states both; `from` carried the employer only to here.
      const { from: at, ...titleMatch } = found;
      titles.push(titleMatch);
      if (at) titles.push({ index: found.index, family: 'employer', key: '', value: at });
    }
    return [
      ...readAfter(clause, EMPLOYER, employer),
      ...readAfter(clause, LEFT_EMPLOYER, (rest) => {
        const found = employer(rest);
        return found && { ...found, negated: true };
      }),
      ...titles,
    ];
  },
};
