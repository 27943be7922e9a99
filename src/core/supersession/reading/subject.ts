/**
 * Who a clause is about, read from the words before its predicate: "I" (the speaker), "we",
 * a name ("Elena", "Jenna's"), a relation ("my sister"), a thing ("the API", "the frontend"),
 * or a pronoun standing for the memory's earlier subject or its one entity.
 */
import { FAMILY_LIST } from './families/index.js';
import { TOOL_KIND } from './families/tool.js';
import type { Token } from './parser.js';

// Nouns that name an attribute in some family ("standup", "rent", "offsite").
const ATTRIBUTE_NOUNS: ReadonlySet<string> = new Set(FAMILY_LIST.flatMap((family) => family.nouns ?? []));

/** The subject of a claim whose pronoun names no one in its memory ("She moved again, to Montreal"). */
export const UNRESOLVED_PERSON = '?person';

/** The subject a clause is read about. */
export interface ClauseSubject {
  /** `user`, `we`, a name or thing in lower case, or a relation (`user/sister`). */
  subject: string;
  /** Whether the subject is a person (so it can live, work, marry). */
  person: boolean;
  /** Nouns after a possessive or a thing's name that name an attribute ("rent", "base url"), lower case. */
  attribute: string;
  /** Whether the subject was only inherited (a pronoun or no subject words). */
  inherited: boolean;
}

/** What the subject reader knows about the memory beyond the clause. */
export interface SubjectContext {
  /** Who "I" is: `user`, or a transcript line's speaker. */
  self: string;
  /** The subject a clause without its own inherits (the memory's earlier subject, or its one entity). */
  fallback: ClauseSubject | undefined;
  /** The memory's last named person, for "he"/"she"/"they". */
  lastPerson: string | undefined;
  /** The memory's last thing, for "it". */
  lastThing: string | undefined;
  /** The memory's entities, whose full names a first name stands for. */
  entities: readonly string[];
  /**
   * Whether a pronoun naming no one in the memory may stand for someone of an earlier memory
   * (a note the agent retains); not in a transcript line, whose "she" is rarely the one named last.
   */
  unresolved: boolean;
}

const RELATIONS = new Set(
  'sister brother mom mum mother dad father wife husband partner boyfriend girlfriend son daughter kid kids child children friend colleague coworker co-worker boss manager neighbour neighbor cousin aunt uncle grandma grandpa grandmother grandfather niece nephew roommate flatmate housemate fiance fiancé fiancée ex landlord teammate mentor buddy bestie parents in-laws sibling stepdad stepmom stepmother stepfather'.split(
    ' ',
  ),
);
// Things that are the user's own world, not another subject: "the repo uses pnpm" is ours.
const OUR_WORLD = new Set([
  'repo',
  'repository',
  'project',
  'codebase',
  'team',
  'company',
  'monorepo',
  'stack',
  'org',
  'organisation',
  'organization',
  'startup',
  'app',
  'product',
  'we',
  'us',
]);
const LEADING = new Set(['INTJ', 'CCONJ', 'SCONJ', 'ADV', 'PUNCT', 'SYM']);
const NOT_NAMES = new Set(
  'update reminder todo fyi summary edit ps important warning tip note correction actually also then today yesterday tomorrow recently currently still just since after before when if but and so not no yes finally apparently anyway well oh sorry please maybe perhaps'.split(
    ' ',
  ),
);

const RELATION_NAMES: Readonly<Record<string, string>> = {
  mum: 'mom',
  mother: 'mom',
  mommy: 'mom',
  father: 'dad',
  daddy: 'dad',
  'co-worker': 'coworker',
  neighbor: 'neighbour',
};

/** One name per relation ("mum", "mother" → "mom"). */
export function relationKey(word: string): string {
  return RELATION_NAMES[word] ?? word;
}

/** Lower case, hyphens and underscores as spaces. */
export function subjectKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’]s$/u, '')
    .replace(/[-_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// Words a thing's name ends in that name no other thing ("the orders service" is "orders").
const THING_SUFFIXES =
  /\s+(?:service|services|app|application|layer|cluster|server|servers|job|environment|env|project|one|site|system|instance|stack)$/u;
const THING_NAMES: Readonly<Record<string, string>> = { prod: 'production', stg: 'staging', dev: 'development' };

/**
 * A thing as a subject: its name without the word for what kind of thing it is ("the orders
 * service", "Orders" and "the orders one" are one thing; "prod" is "production").
 */
export function thingKey(name: string): string {
  let key = subjectKey(name);
  for (let previous = ''; previous !== key; ) {
    previous = key;
    key = key.replace(THING_SUFFIXES, '');
  }
  return THING_NAMES[key] ?? key;
}

/**
 * A person as a subject: the first name ("Marcus Chen" and "Marcus" are one person in one
 * memory store; two people of one first name in one scope are rarer than one person named both ways).
 */
export function personKey(name: string, entities: readonly string[] = []): string {
  const key = subjectKey(name);
  if (key.includes(' ')) return key;
  // "Marcus" in a memory tagged "Marcus Chen" is Marcus Chen.
  const full = entities.map(subjectKey).find((entity) => entity.startsWith(`${key} `));
  return full ?? key;
}

const person = (subject: string, attribute = '', inherited = false): ClauseSubject => ({
  subject,
  person: true,
  attribute,
  inherited,
});

/** The subject named by `span` (the tokens before a clause's predicate). */
export function readSubject(span: readonly Token[], context: SubjectContext): ClauseSubject | undefined {
  let start = 0;
  // A leading phrase ("In May,", "Actually,", "So") is not the subject.
  const lastComma = span.map((token) => token.text).lastIndexOf(',');
  if (lastComma >= 0) start = lastComma + 1;
  while (start < span.length && (LEADING.has(span[start]!.pos) || NOT_NAMES.has(span[start]!.lower))) start += 1;
  let words = span.slice(start);
  // "After the review I'm on $118k": the pronoun right before the verb is the subject.
  const last = words[words.length - 1];
  if (
    last &&
    words.length > 1 &&
    ['i', 'we', 'he', 'she', 'they'].includes(last.lower) &&
    words[words.length - 2]?.pos !== 'PRON'
  )
    words = [last];
  if (words.length === 0) return context.fallback && { ...context.fallback, attribute: '', inherited: true };
  // "Ivy and Marco got engaged", "Ben and Clara tied the knot": the first of the two is read as the
  // subject (the claim holds for each), never the second, whose name is nearest the verb.
  const and = words.findIndex(
    (token, index) =>
      token.lower === 'and' && index > 0 && ['PROPN', 'NOUN', 'PRON'].includes(words[index + 1]?.pos ?? ''),
  );
  // "Sara and I", "Mateo and me": the speaker is one of the two, and the one the claim is kept for.
  if (and > 0 && words.slice(and + 1).some((token) => ['i', 'me'].includes(token.lower))) return person(context.self);
  if (and > 0) words = words.slice(0, and);
  const nouns = (from: number) =>
    words
      .slice(from)
      .filter(
        (token) =>
          ['NOUN', 'PROPN', 'ADJ', 'NUM', 'X'].includes(token.pos) || token.text === '-' || token.lower === 'of',
      )
      .map((token) => token.lower)
      .join(' ')
      .replace(/ - /gu, '-');

  for (let index = 0; index < words.length; index += 1) {
    const token = words[index]!;
    const lower = token.lower;
    if (['i', 'me', 'myself'].includes(lower)) return person(context.self);
    if (['we', 'us'].includes(lower)) return { subject: 'we', person: true, attribute: '', inherited: false };
    // A pronoun with no one named before it in the memory stands for someone named in an earlier
    // memory: the claim is kept under UNRESOLVED, and supersession resolves it (find-supersessions.ts).
    if (['he', 'she', 'him', 'they', 'them'].includes(lower))
      return context.lastPerson || context.unresolved
        ? person(context.lastPerson ?? UNRESOLVED_PERSON, '', true)
        : undefined;
    if (lower === 'it')
      return context.lastThing
        ? { subject: context.lastThing, person: false, attribute: '', inherited: true }
        : undefined;
    if (['my', 'our', 'his', 'her', 'their', 'its'].includes(lower)) {
      const owner =
        lower === 'my'
          ? context.self
          : lower === 'our'
            ? 'we'
            : lower === 'its'
              ? context.lastThing
              : context.lastPerson;
      if (!owner) return undefined;
      // "My colleague Jenna's salary", "my sister Ana": the name is the subject.
      const rest = words.slice(index + 1);
      const named = rest.findIndex((next) => next.pos === 'PROPN' && /^\p{Lu}/u.test(next.text));
      // "My colleague Jenna", "my best friend Lucy": a relation, then the name ("our CI" names no one).
      const before = rest.slice(0, Math.max(named, 0));
      if (
        named > 0 &&
        before.some((next) => RELATIONS.has(next.lower)) &&
        before.every((next) => RELATIONS.has(next.lower) || next.pos === 'ADJ')
      ) {
        const nameEnd = rest.findIndex(
          (next, at) => at > named && !(next.pos === 'PROPN' && /^\p{Lu}/u.test(next.text)),
        );
        const name = rest.slice(named, nameEnd < 0 ? undefined : nameEnd);
        const afterName = nameEnd < 0 ? [] : rest.slice(nameEnd);
        const possessive = afterName[0]?.lower === "'s" || afterName[0]?.text === "'";
        return person(
          personKey(name.map((t) => t.text).join(' '), context.entities),
          possessive ? nouns(index + 1 + nameEnd + 1) : '',
        );
      }
      const relation = rest.find((next) => RELATIONS.has(next.lower));
      if (relation && rest[0] === relation) {
        const after = rest.indexOf(relation) + 1;
        const possessive = rest[after]?.lower === "'s";
        return person(`${owner}/${relationKey(relation.lower)}`, possessive ? nouns(index + 2 + after) : '');
      }
      return { subject: owner, person: true, attribute: nouns(index + 1), inherited: false };
    }
    if (lower === 'user' || (lower === 'the' && words[index + 1]?.lower === 'user')) {
      const at = lower === 'user' ? index : index + 1;
      const possessive = words[at + 1]?.lower === "'s";
      return person('user', possessive ? nouns(at + 2) : '');
    }
    // "Dad retired", "Mum went vegan": a relation named alone is the speaker's.
    if (RELATIONS.has(lower) && index === 0 && !['PART'].includes(words[1]?.pos ?? '') && words[1]?.pos !== 'PROPN') {
      const possessive = words[1]?.lower === "'s";
      return person(`${context.self}/${relationKey(lower)}`, possessive ? nouns(2) : '');
    }
    if (token.pos === 'PROPN' && /^\p{Lu}/u.test(token.text) && !NOT_NAMES.has(lower)) {
      let end = index;
      while (end < words.length && words[end]!.pos === 'PROPN' && /^\p{Lu}/u.test(words[end]!.text)) end += 1;
      const name = subjectKey(
        words
          .slice(index, end)
          .map((t) => t.text)
          .join(' '),
      );
      // "Standup moved to 10:15", "Offsite's been moved": a capitalised attribute noun is a thing.
      if (ATTRIBUTE_NOUNS.has(name) || ATTRIBUTE_NOUNS.has(name.replace(/s$/u, '')))
        return {
          subject: '',
          person: false,
          attribute: [name, nouns(end)].filter(Boolean).join(' '),
          inherited: false,
        };
      // "Ivy and Marco got engaged": a couple is not one subject.
      if (words[end]?.lower === 'and' && words[end + 1]?.pos === 'PROPN') return undefined;
      const possessive = words[end]?.lower === "'s" || words[end]?.text === "'";
      // "Emma's daughter Lily's favourite colour": Lily's.
      if (possessive && isRelation(words[end + 1]?.lower ?? '') && words[end + 2]?.pos === 'PROPN') {
        let nameEnd = end + 2;
        while (nameEnd < words.length && words[nameEnd]!.pos === 'PROPN') nameEnd += 1;
        const relative = personKey(
          words
            .slice(end + 2, nameEnd)
            .map((t) => t.text)
            .join(' '),
          context.entities,
        );
        const owned = words[nameEnd]?.lower === "'s";
        return person(relative, owned ? nouns(nameEnd + 1) : '');
      }
      const attribute = possessive ? nouns(end + 1) : nouns(end);
      // "The Acme API base URL", "Billing's port": a named thing, when nouns follow it; "Yarn is
      // gone": a tool is a thing.
      const isPerson = (!attribute || possessive) && !TOOL_KIND.has(name.replace(/\s+/gu, '-'));
      if (OUR_WORLD.has(name)) return { subject: 'we', person: true, attribute, inherited: false };
      return {
        subject: isPerson ? personKey(name, context.entities) : name,
        person: isPerson,
        attribute,
        inherited: false,
      };
    }
    if (['the', 'this', 'that', 'these', 'those'].includes(lower) || token.pos === 'NOUN') {
      const from = token.pos === 'NOUN' ? index : index + 1;
      const phrase = nouns(from);
      if (!phrase) continue;
      const possessiveAt = words.findIndex((next, at) => at >= from && next.lower === "'s");
      if (possessiveAt >= 0) {
        const owner = subjectKey(
          words
            .slice(from, possessiveAt)
            .map((t) => t.text)
            .join(' '),
        );
        return {
          subject: OUR_WORLD.has(owner) ? 'we' : owner,
          person: false,
          attribute: nouns(possessiveAt + 1),
          inherited: false,
        };
      }
      return { subject: '', person: false, attribute: phrase, inherited: false };
    }
  }
  return undefined;
}

/** Whether a word names a relation ("sister", "colleague"). */
export function isRelation(word: string): boolean {
  return RELATIONS.has(word);
}

/** Whether a thing is the user's own world ("the repo", "the team"). */
export function isOurWorld(thing: string): boolean {
  return OUR_WORLD.has(thing);
}
