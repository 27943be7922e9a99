/**
 * Reading a memory's claims from its parse: split into clauses, find each clause's subject and
 * predicate, then let every family's tables say whether the predicate states, ends or switches
 * one of its values. One piece of code over the families' words (families/*.ts).
 */
import type { Claim } from '../claim.js';
import { normaliseValue } from '../values-compare.js';
import { ClauseReader } from './clause-reader.js';
import { clausesOf, expandContractions, possessiveOrIs, withCorrectionsRead } from './clauses.js';
import { mayStateClaims, NEGATED_AFTER, VERB_FORMS } from './frame-words.js';
import { type Parse, retagVerbs } from './parser.js';
import { sitesOf } from './sites.js';
import { personKey, readSubject, type SubjectContext, subjectKey } from './subject.js';

/** What the reader knows about a memory beyond its text. */
export interface ReadContext {
  /** The memory's entities (`Peter`, `The-Castle`). */
  entities: readonly string[];
  /** Who says it (a transcript's speaker, as a subject key), when not the user. */
  speaker?: string;
}

/** Longest text a memory is read over: claims sit in its first sentences. */
const MAX_CHARS = 1_500;

// "Peter: Lives in Vienna" — a note or transcript line names its subject before a colon.
const PREFIX = /^\s*(\p{Lu}[\p{L}\p{N}'-]*(?:[ -]\p{Lu}[\p{L}\p{N}'-]*){0,3}):\s+/u;
const NOT_PREFIX = new Set([
  'update',
  'correction',
  'note',
  'fyi',
  'reminder',
  'todo',
  'edit',
  'ps',
  'important',
  'summary',
  'actually',
  'tip',
  'warning',
  'news',
]);

const isPersonName = (subject: string) =>
  subject !== '' && subject !== 'user' && subject !== 'we' && !subject.includes('/');

/** Every claim a memory's text makes, read with `parse`. */
export function readClaims(parse: Parse, content: string, context: ReadContext): Claim[] {
  let text = content.slice(0, MAX_CHARS).normalize('NFKC').replace(/[’‘`]/gu, "'").replace(/[“”]/gu, '"');
  const single = context.entities.length === 1 && context.entities[0] ? subjectKey(context.entities[0]) : undefined;
  let self = context.speaker ?? 'user';
  const prefix = PREFIX.exec(text);
  let named: string | undefined = context.speaker;
  if (prefix?.[1] && !NOT_PREFIX.has(prefix[1].toLowerCase())) {
    named = personKey(prefix[1], context.entities);
    self = named;
    text = text.slice(prefix[0].length);
  }
  if (!mayStateClaims(text)) return [];
  const tokens = possessiveOrIs(retagVerbs(parse(expandContractions(withCorrectionsRead(text))), VERB_FORMS));
  const personFallback = named ?? single;
  const state: SubjectContext = {
    self,
    fallback: personFallback
      ? { subject: personFallback, person: true, attribute: '', inherited: true }
      : { subject: self, person: true, attribute: '', inherited: true },
    // A transcript line's "she" is not its speaker.
    lastPerson: single,
    lastThing: undefined,
    entities: context.entities,
    unresolved: named === undefined,
  };
  const claims = new Map<string, Claim>();
  for (const clause of clausesOf(tokens)) {
    const predicate = clause.findIndex((token) => token.pos === 'VERB' || token.pos === 'AUX');
    if (predicate < 0) continue;
    const fallbackSubject = state.fallback?.subject;
    const subject = readSubject(clause.slice(0, predicate), state);
    if (!subject) continue;
    if (
      !subject.inherited &&
      subject.person &&
      (isPersonName(subject.subject) || (subject.subject === 'user' && self === 'user'))
    )
      state.lastPerson = subject.subject;
    if (!subject.person && subject.subject !== '') state.lastThing = subject.subject;
    if (subject.subject !== '' || subject.person) state.fallback = { ...subject, attribute: '', inherited: true };
    const negatedAfter = clause.slice(predicate).some((token) => NEGATED_AFTER.has(token.lower));
    const reader = new ClauseReader(clause, predicate, subject, negatedAfter, fallbackSubject);
    reader.read(sitesOf(clause, predicate));
    for (const read of reader.found) {
      const value = read.value === '*' ? '*' : normaliseValue(read.value);
      if (value === '') continue;
      const claim: Claim = {
        subject: read.subject,
        family: read.family,
        key: normaliseValue(read.key),
        value,
        negated: read.negated,
        ...(read.from ? { from: read.from } : {}),
        rule: read.family === '*' ? 'switch' : read.family,
      };
      claims.set(`${claim.subject}|${claim.family}|${claim.key}|${value}|${claim.negated}|${claim.from ?? ''}`, claim);
    }
  }
  return [...claims.values()];
}
