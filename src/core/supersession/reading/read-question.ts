/**
 * Reading a question for the slot it asks about: "where does Elena live now" → Elena's
 * residence; "what's Tomás's job title" → Tomás's work; "which package manager does the repo
 * use" → the user's tool of kind "package manager". Recall then brings that slot's holders in,
 * whatever words they share with the question.
 */

import { FAMILY_BY_NAME } from './families/index.js';
import { THING_CATEGORY } from './families/owns.js';
import { KIND_WORDS, TOOL_KIND } from './families/tool.js';
import type { Family } from './family.js';
import type { Parse, Token } from './parser.js';
import { isOurWorld, isRelation, relationKey, subjectKey, thingKey } from './subject.js';
import { thingAt } from './values.js';

/** A slot a question asks about. */
export interface AskedSlot {
  /**
   * Whether the question asks for the slot's value now, in so many words ("where does Elena
   * live", "what is my rent", "which CI do we use"): not about an event ("when did …", "how
   * did … feel"), which a slot's holder rarely answers.
   */
  direct: boolean;
  /** Whose (`user`, a name, a thing). */
  subject: string;
  /** The attribute family. */
  family: string;
  /** The key within the family, when the question names one ("rent", "package manager"). */
  key?: string;
}

const QUESTION_WORDS = new Set(
  'what where which who when how is are was were does do did has have can could should would will why whats'.split(' '),
);
const BEFORE_VALUE = new Set([
  'in',
  'at',
  'to',
  'from',
  'before',
  'after',
  'than',
  'of',
  'with',
  'for',
  'on',
  'since',
  'until',
  'like',
]);

// Words that ask about a family, by lemma.
const CUES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['residence', ['live', 'home', 'based', 'reside', 'hometown', 'address']],
  ['work', ['work', 'job', 'title', 'role', 'position', 'employer', 'occupation', 'profession']],
  [
    'relationship',
    [
      'married',
      'marry',
      'single',
      'date',
      'dating',
      'partner',
      'relationship',
      'engaged',
      'engage',
      'wife',
      'husband',
      'girlfriend',
      'boyfriend',
      'divorce',
      'divorced',
      'spouse',
      'seeing',
      'together',
      'fiance',
      'fiancé',
      'fiancée',
    ],
  ],
  ['diet', ['diet', 'vegetarian', 'vegan', 'meat', 'pescatarian', 'eat', 'keto']],
  ['stance', ['like', 'love', 'enjoy', 'hate', 'feel', 'fan', 'into', 'dislike']],
];

function subjectOf(tokens: readonly Token[]): string {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (['my', 'i', 'me', 'mine'].includes(token.lower)) {
      const next = tokens[index + 1];
      return next && token.lower === 'my' && isRelation(next.lower) ? `user/${relationKey(next.lower)}` : 'user';
    }
    if (['we', 'our', 'us'].includes(token.lower)) return 'user';
    if (token.lower === 'user' && tokens[index - 1]?.lower === 'the') return 'user';
    const afterPreposition = BEFORE_VALUE.has(tokens[index - 1]?.lower ?? '');
    const kindOrTool = KIND_WORDS[token.lower] !== undefined || TOOL_KIND.has(token.lower);
    if (
      token.pos === 'PROPN' &&
      /^\p{Lu}/u.test(token.text) &&
      !QUESTION_WORDS.has(token.lower) &&
      !afterPreposition &&
      !kindOrTool
    ) {
      let end = index;
      while (end < tokens.length && tokens[end]!.pos === 'PROPN' && /^\p{Lu}/u.test(tokens[end]!.text)) end += 1;
      return subjectKey(
        tokens
          .slice(index, end)
          .map((t) => t.text)
          .join(' '),
      );
    }
  }
  return 'user';
}

function keyIn(family: Family, text: string): string | undefined {
  let best: string | undefined;
  for (const noun of family.nouns ?? [])
    if (` ${text} `.includes(` ${noun} `) && (!best || noun.length > best.length)) best = noun;
  return best;
}

/** A thing the question is about ("the API", "the monorepo", "the frontend"), when it names one. */
function thingOf(tokens: readonly Token[], nouns: ReadonlySet<string>): string | undefined {
  for (let index = 0; index < tokens.length; index += 1) {
    if (tokens[index]!.lower !== 'the' || BEFORE_VALUE.has(tokens[index - 1]?.lower ?? '')) continue;
    const thing = thingAt(tokens, index + 1);
    if (!thing) continue;
    const words = subjectKey(thing.text)
      .split(' ')
      .filter((word) => !nouns.has(word) && !['use', 'uses', 'run', 'runs', 'using', 'on', 'in'].includes(word));
    if (words.length > 0) return thingKey(words.join(' '));
  }
  return undefined;
}

// "What car is…", "my phone is…": a question for an owned thing's value.
const ASKS_OWNED = new RegExp(
  String.raw`\b(?:what|which|my|our|'s)\s+(?:\w+\s+)?(?:${(FAMILY_BY_NAME.get('owns')?.nouns ?? []).join('|')})\s+(?:is|are|do|does)\b`,
  'u',
);

// The words of the nouns that name a keyed family's attribute: not part of the thing asked about.
const KEYED_NOUN_WORDS: ReadonlySet<string> = new Set(
  ['amount', 'schedule', 'setting', 'favourite', 'owns', 'tool'].flatMap((name) =>
    (FAMILY_BY_NAME.get(name)?.nouns ?? []).flatMap((noun) => noun.split(' ')),
  ),
);

let cueWords: ReadonlySet<string> | undefined;

/** Every word a slot question needs at least one of: the families' cues and nouns, kinds, tools, "where", possessives. */
export function mayAskSlot(text: string): boolean {
  cueWords ??= new Set([
    ...CUES.flatMap(([, cues]) => cues),
    ...[
      'lives',
      'lived',
      'living',
      'works',
      'worked',
      'working',
      'likes',
      'loves',
      'hates',
      'eats',
      'drives',
      'drive',
      'earn',
      'earns',
      'cost',
      'costs',
      'pay',
      'pays',
      'weigh',
      'weighs',
    ],
    ...['where', 'much', 'my', 'our', 'their', 'his', 'her', 'favourite', 'favorite'],
    ...[...FAMILY_BY_NAME.values()].flatMap((family) => (family.nouns ?? []).flatMap((noun) => noun.split(' '))),
    ...Object.keys(KIND_WORDS).flatMap((phrase) => phrase.split(' ')),
    ...TOOL_KIND.keys(),
  ]);
  const plain = text.normalize('NFKC').replace(/[’‘`]/gu, "'");
  if (/'s\b/u.test(plain)) return true;
  return plain
    .toLowerCase()
    .split(/[^\p{L}\p{N}:/-]+/u)
    .some((word) => cueWords!.has(word) || cueWords!.has(word.replace(/s$/u, '')));
}

/** The slots `question` asks about; empty when it names none. */
export function readQuestion(parse: Parse, question: string): AskedSlot[] {
  const text = question
    .normalize('NFKC')
    .replace(/[’‘`]/gu, "'")
    .replace(/\bwhat's\b/giu, 'what is');
  // Most queries name no slot: a word lookup decides that before a parse.
  if (!mayAskSlot(text)) return [];
  const tokens = parse(text);
  const words = ` ${tokens.map((token) => token.lower).join(' ')} `;
  const lemmas = new Set(tokens.map((token) => token.lemma));
  const person = subjectOf(tokens);
  const slots: AskedSlot[] = [];
  const present =
    /^\s*(?:what|where|which|who|whom|when|how much|is|are|am|does|do)\b/u.test(words) &&
    !/\b(?:did|was|were|why|would|could|should|might|feel|felt|had|happened)\b/u.test(words) &&
    !/\b(?:has|have)\s+(?:\w+\s+)?(?:been|\w+ed)\b/u.test(words);
  // Per family, the words that ask for the value itself (not for an event around it).
  const asks: Record<string, boolean> = {
    stance: /^\s*(?:does|do|is|are|am)\b/u.test(words),
    schedule: /\b(?:when is|when are|what time|what day|which day)\b/u.test(words),
    owns: ASKS_OWNED.test(words) || lemmas.has('drive'),
    attribute: false,
  };
  const add = (subject: string, family: string, key?: string) => {
    const direct = present && (asks[family] ?? !/\bwhen\b/u.test(words));
    if (!slots.some((slot) => slot.subject === subject && slot.family === family && slot.key === key))
      slots.push({ subject, family, direct, ...(key !== undefined ? { key } : {}) });
  };
  for (const [family, cues] of CUES) {
    if (!cues.some((cue) => (cue !== 'based' && lemmas.has(cue)) || words.includes(` ${cue} `))) continue;
    if (family !== 'stance') {
      add(person, family);
      continue;
    }
    // "Does Peter like tea?": a liking of one thing; "what does Peter like?": of any.
    const verb = tokens.findIndex((token) => cues.includes(token.lemma));
    const object = verb >= 0 ? thingAt(tokens, verb + 1) : undefined;
    add(person, family, object ? subjectKey(object.text) : undefined);
  }
  // "where is Elena now": a place asked of a person.
  // "Where is Elena now?": a place asked of a person, now.
  if (
    slots.length === 0 &&
    /\bwhere\b/u.test(words) &&
    /\b(?:now|these days|currently)\b/u.test(words) &&
    !/'s\s+\p{L}/u.test(words)
  )
    add(person, 'residence');
  const thing = thingOf(tokens, KEYED_NOUN_WORDS);
  const owner = (shared: boolean) => {
    const found = thing && !isOurWorld(thing) ? thing : person;
    return shared && found === 'we' ? 'user' : found;
  };
  for (const name of ['amount', 'schedule', 'setting', 'favourite']) {
    const family = FAMILY_BY_NAME.get(name)!;
    const key = keyIn(family, words.trim());
    if (!key) continue;
    if (name === 'favourite') {
      const after = words.split(key)[1]?.trim().split(' ')[0];
      add(person, name, after);
      continue;
    }
    add(owner(true), name, name === 'schedule' ? undefined : key);
    if (thing) add('user', name, name === 'schedule' ? undefined : key);
  }
  // "When is Rachel's birthday?", "what's my blood type": any other attribute of an owner.
  if (/(?:'s|\bmy|\bour|\btheir|\bhis|\bher)\s+\p{L}/u.test(text.toLowerCase())) add(owner(true), 'attribute');
  if (
    /\bhow much\b/u.test(words) ||
    lemmas.has('earn') ||
    lemmas.has('cost') ||
    lemmas.has('pay') ||
    lemmas.has('weigh')
  )
    add(owner(true), 'amount');
  for (const word of words.trim().split(' ')) {
    const category = THING_CATEGORY[word];
    if (category && FAMILY_BY_NAME.get('owns')!.nouns!.includes(word)) add(person, 'owns', category);
  }
  if (lemmas.has('drive')) add(person, 'owns', 'car');
  let kind: string | undefined;
  for (const phrase of Object.keys(KIND_WORDS))
    if (words.includes(` ${phrase} `) && (!kind || phrase.length > kind.length)) kind = phrase;
  // "What Node version is the backend on?": a tool named asks for its kind.
  const named = tokens.map((token) => TOOL_KIND.get(token.lower)).find((found) => found !== undefined);
  for (const found of [kind ? KIND_WORDS[kind] : undefined, named]) {
    if (!found) continue;
    add(owner(true), 'tool', found);
    if (thing) add('user', 'tool', found);
  }
  return slots;
}
