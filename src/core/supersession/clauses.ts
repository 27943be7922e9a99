/**
 * Splitting a fact into clauses and finding who each is about: "I", "we", a named entity,
 * a pronoun standing for the memory's one entity, or a relation ("my sister").
 */
import type { Clause, SubjectMention } from './claim.js';
import { rewriteCorrections } from './corrections.js';
import { escapeRegExp, matchesOf } from './phrases.js';

/** What the clause reader knows about the memory beyond its text. */
export interface ClauseContext {
  /** The memory's entities (`Peter`, `The-Castle`). */
  entities: readonly string[];
}

/** An entity name as a subject: lower case, hyphens as spaces ("The-Castle" → "the castle"). */
export function entitySubject(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
}

// Capitalised words that start sentences without naming anyone.
const NOT_NAMES = new Set(
  'update reminder todo fyi summary edit ps important warning tip the this that these those now actually also then today yesterday tomorrow recently currently still just since after before when if but and so not no yes finally apparently anyway well oh sorry correction update note please maybe perhaps it there here what who where why how a an all some every each as at in on for from with by to of our my your his her their its we i he she they you'.split(
    ' ',
  ),
);

const FIRST_PERSON = /\b(?:I|I'm|I've|I'd|I'll|me|myself)\b(?!['’]s)/gu;
const USER = /\b(?:the user|user)\b(?!['’]s)/giu;
const WE =
  /\b(?:we|we're|we've|we'll|we'd|us|our team|the team|the project|this project|our project|the repo|this repo|the codebase|our codebase)\b/giu;
const PRONOUN = /\b(?:he|she|they|him|them|he's|she's|they're)\b/giu;
const POSSESSIVE = /\b(?:my|our|his|her|their|its|the user['’]s|user['’]s)\b/giu;
const START_NAME = /^(\p{Lu}[\p{L}\p{N}'’-]*(?:\s\p{Lu}[\p{L}\p{N}'’-]*){0,2})(?:['’]s)?\s+(?=\p{Ll})/u;

function possessiveSubject(word: string, single: string | undefined, self: string): string | undefined {
  const lower = word.toLowerCase().replace('’', "'");
  if (lower === 'my') return self;
  if (lower.includes('user')) return 'user';
  if (lower === 'our') return 'we';
  return single;
}

// Entity patterns by name: a batch names the same few entities thousands of times. Bounded,
// so a stream of distinct names cannot grow it without end.
const ENTITY_PATTERNS = new Map<string, RegExp>();
const MAX_ENTITY_PATTERNS = 4096;

function entityPattern(entity: string): RegExp {
  let found = ENTITY_PATTERNS.get(entity);
  if (!found) {
    const spelled = escapeRegExp(entity).replace(/[-_]+/g, '[-_ ]+');
    found = new RegExp(String.raw`\b${spelled}(['’]s)?\b`, 'giu');
    if (ENTITY_PATTERNS.size >= MAX_ENTITY_PATTERNS) ENTITY_PATTERNS.clear();
    ENTITY_PATTERNS.set(entity, found);
  }
  return found;
}

/** Every place in `text` that names a subject, in order. */
function mentionsIn(text: string, entities: readonly string[], self: string): SubjectMention[] {
  const single = entities.length === 1 && entities[0] ? entitySubject(entities[0]) : undefined;
  const mentions: SubjectMention[] = [];
  const add = (match: RegExpExecArray, subject: string | undefined, possessive: boolean) => {
    if (subject) mentions.push({ end: match.index + match[0].length, subject, possessive });
  };
  for (const match of matchesOf(FIRST_PERSON, text)) add(match, self, false);
  for (const match of matchesOf(USER, text)) add(match, 'user', false);
  for (const match of matchesOf(WE, text)) add(match, 'we', false);
  for (const match of matchesOf(PRONOUN, text)) add(match, single, false);
  for (const match of matchesOf(POSSESSIVE, text)) add(match, possessiveSubject(match[0], single, self), true);
  for (const entity of entities) {
    for (const match of matchesOf(entityPattern(entity), text))
      add(match, entitySubject(entity), match[1] !== undefined);
  }
  const start = START_NAME.exec(text);
  const name = start?.[1];
  if (start && name && !NOT_NAMES.has(name.toLowerCase()) && !mentions.some((m) => m.end <= name.length + 1))
    mentions.push({
      end: name.length + (start[0].includes("'") || start[0].includes('’') ? 2 : 0),
      subject: entitySubject(name),
      possessive: /['’]s\s*$/u.test(start[0]),
    });
  return mentions.sort((a, b) => a.end - b.end);
}

// "Peter: Lives in Vienna" — a workspace bullet names its subject before a colon.
// Only a name: capitalised words ("Rent update:" or "Note:" name no one).
const PREFIX = /^\s*(\p{Lu}[\p{L}\p{N}'’-]*(?:[ -]\p{Lu}[\p{L}\p{N}'’-]*){0,3}):\s+/u;

/** The clauses of a fact, each with its subject mentions and the subject it inherits. */
export function clausesOf(text: string, context: ClauseContext): Clause[] {
  let body = text.normalize('NFKC').replace(/[’]/g, "'");
  const entities = context.entities;
  const single = entities.length === 1 && entities[0] ? entitySubject(entities[0]) : undefined;
  let inherited = single;
  // "I" is whoever speaks: the user, or the speaker a transcript line names ("Caroline: I …").
  let self = 'user';
  const prefix = PREFIX.exec(body);
  if (prefix?.[1] && !NOT_NAMES.has(prefix[1].toLowerCase())) {
    inherited = entitySubject(prefix[1]);
    self = inherited;
    body = body.slice(prefix[0].length);
  }
  const clauses: Clause[] = [];
  for (const sentence of body.split(/(?<=[.!?])\s+(?=[\p{Lu}\d"“])|\n+/u)) {
    let sentenceSubject = inherited;
    for (const raw of sentence.split(/;\s*|\s+[—–]\s+/u)) {
      const clauseText = rewriteCorrections(raw);
      if (clauseText === '') continue;
      const mentions = mentionsIn(clauseText, entities, self);
      clauses.push({ text: clauseText, mentions, fallback: sentenceSubject });
      const first = mentions.find((mention) => !mention.possessive);
      if (first) sentenceSubject = first.subject;
    }
  }
  return clauses;
}

const FILLER =
  /^(?:\s|\b(?:now|recently|also|actually|just|finally|has|have|had|will|would|is|was|are|were|then|since|currently|still|already|lately|meanwhile|today|yesterday|and|but|so|officially|permanently|eventually|happily|sadly|newly|again|has since|not|no longer|never|does|did|do|doesn't|didn't|don't|really|truly|very|much)\b)*$/iu;

/**
 * Who a predicate at `index` is about: the nearest mention before it (a possessive with a
 * noun between names a relation, "my sister" → `user/sister`), else the clause's fallback.
 */
export function subjectAt(clause: Clause, index: number): string | undefined {
  let nearest: SubjectMention | undefined;
  for (const mention of clause.mentions) if (mention.end <= index) nearest = mention;
  // Without a mention the clause inherits its subject, unless it opens with a noun of its
  // own ("The standup moved to …"): then it is about something we cannot name.
  if (!nearest) return FILLER.test(clause.text.slice(0, index)) ? clause.fallback : undefined;
  if (!nearest.possessive) return nearest.subject;
  const between = clause.text.slice(nearest.end, index).trim().toLowerCase();
  if (between === '') return nearest.subject;
  // "my sister", "Peter's wife": a relation of the owner; a longer gap is not one we read.
  if (/^[\p{Ll}-]+(?:\s[\p{Ll}-]+)?$/u.test(between)) return `${nearest.subject}/${between}`;
  return undefined;
}
