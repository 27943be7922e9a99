/**
 * Reading a memory's claims from its parse: split into clauses, find each clause's subject and
 * predicate, then let every family's tables say whether the predicate states, ends or switches
 * one of its values. One piece of code over the families' words (families/*.ts).
 */
import type { Claim } from '../claim.js';
import { rewriteCorrections } from '../corrections.js';
import { normaliseValue } from '../values-compare.js';
import { AMOUNT_KEY_OF_VERB } from './families/amount.js';
import { DIET_FOODS } from './families/diet.js';
import { FAMILY_LIST } from './families/index.js';
import { THING_CATEGORY } from './families/owns.js';
import { STANCE_OF } from './families/preference.js';
import { KIND_WORDS, TOOL_KIND, tool } from './families/tool.js';
import type { Family } from './family.js';
import { type Parse, retagVerbs, type Token } from './parser.js';
import { type ClauseSubject, isOurWorld, personKey, readSubject, type SubjectContext, subjectKey } from './subject.js';
import { amountAt, isTimeToken, nameAt, skipFiller, thingAt, titleAt, type ValueSpan, valueAt } from './values.js';

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

const CLAUSE_BREAKS = new Set([';', ':', '—', '–', '(', ')', '!', '?', '--']);
const LINK_VERBS = new Set([
  'be',
  'become',
  'go',
  'turn',
  'get',
  'stay',
  'remain',
  'start',
  'have',
  'now',
  'feel',
  'officially',
  'still',
]);
const SWITCH_VERBS = new Set([
  'switch',
  'move',
  'migrate',
  'change',
  'go',
  'upgrade',
  'downgrade',
  'transition',
  'convert',
  'shift',
  'swap',
  'jump',
  'relocate',
  'port',
]);
const REPLACE_VERBS = new Set(['replace', 'swap', 'trade', 'exchange', 'ditch', 'drop', 'dump', 'abandon', 'leave']);
// Verbs that end whatever value they name, in any family ("left Barcelona", "sold the Volvo").
const GENERIC_ENDS: Readonly<Record<string, readonly string[]>> = {
  leave: [''],
  quit: [''],
  sell: [''],
  ditch: [''],
  drop: [''],
  dump: [''],
  abandon: [''],
  'give up': ['', 'on'],
  'pull out of': [''],
  'pull out': ['of'],
  'get rid of': [''],
  'move out': ['of'],
  'move away': ['from'],
  'move off': ['', 'of'],
  'stop using': [''],
  'phase out': [''],
  'walk away': ['from'],
  'step down': ['from', 'as'],
  'break up': ['with'],
  'split up': ['with'],
  'part ways': ['with'],
  'no longer use': [''],
};
// Inflected forms of every single-word verb the tables name ("lives" → live), for retagVerbs.
const VERB_FORMS: ReadonlyMap<string, string> = (() => {
  const forms = new Map<string, string>();
  const lemmas = new Set<string>(Object.keys(GENERIC_ENDS));
  for (const family of FAMILY_LIST)
    for (const table of [family.states, family.ends]) for (const lemma of Object.keys(table ?? {})) lemmas.add(lemma);
  for (const lemma of lemmas) {
    if (lemma.includes(' ')) continue;
    const stem = lemma.replace(/e$/u, '');
    const third = /(?:s|sh|ch|x|z)$/u.test(lemma)
      ? `${lemma}es`
      : /[^aeiou]y$/u.test(lemma)
        ? `${lemma.slice(0, -1)}ies`
        : `${lemma}s`;
    for (const form of [third, `${stem}ed`, `${stem}ing`]) forms.set(form, lemma);
  }
  return forms;
})();
// Past forms the regular rules above do not make.
const IRREGULAR: Readonly<Record<string, readonly string[]>> = {
  be: [
    'is',
    'am',
    'are',
    'was',
    'were',
    "'s",
    "'m",
    "'re",
    'been',
    'being',
    'isn',
    'aren',
    'wasn',
    'weren',
    's',
    'm',
    're',
  ],
  leave: ['left'],
  go: ['went', 'gone', 'goes'],
  get: ['got', 'gotten'],
  become: ['became'],
  sell: ['sold'],
  buy: ['bought'],
  have: ['had', 'has'],
  take: ['took', 'taken'],
  drive: ['drove', 'driven'],
  run: ['ran'],
  make: ['made'],
  pay: ['paid'],
  write: ['wrote', 'written'],
  give: ['gave', 'given'],
  break: ['broke', 'broken'],
  build: ['built'],
  ride: ['rode', 'ridden'],
  lose: ['lost'],
  meet: ['met'],
  fly: ['flew', 'flown'],
  choose: ['chose', 'chosen'],
  bring: ['brought'],
  begin: ['began', 'begun'],
  stand: ['stood'],
  wed: ['wed'],
  quit: ['quit'],
  set: ['set'],
  split: ['split'],
  put: ['put'],
  eat: ['ate', 'eaten'],
  see: ['saw', 'seen'],
  swap: ['swapped'],
  stop: ['stopped'],
  drop: ['dropped'],
  ditch: ['ditched'],
  dump: ['dumped'],
  plan: ['planned'],
  pin: ['pinned'],
};

/**
 * Every word that can open a frame: the forms of every verb the tables name, the statuses and
 * nouns. A text with none of them states no claim, and is not parsed — most of what an agent
 * retains ("Ravi fixed the ledger build") costs one word lookup each, not a parse.
 */
const FRAME_WORDS: ReadonlySet<string> = (() => {
  const words = new Set<string>(VERB_FORMS.keys());
  const add = (phrase: string) => {
    for (const word of phrase.toLowerCase().split(/[\s/-]+/u)) if (word) words.add(word);
  };
  const lemmas = new Set<string>([
    ...Object.keys(GENERIC_ENDS),
    ...SWITCH_VERBS,
    ...REPLACE_VERBS,
    'upgrade',
    'bump',
    'pin',
    'promote',
    'retire',
    'stop',
    'quit',
    'cut',
    'avoid',
    'eat',
    'tie',
  ]);
  for (const family of FAMILY_LIST) {
    for (const table of [family.states, family.ends, family.statuses])
      for (const key of Object.keys(table ?? {})) lemmas.add(key);
    for (const noun of family.nouns ?? []) add(noun);
  }
  for (const lemma of lemmas) {
    add(lemma);
    const head = lemma.split(' ')[0]!;
    const stem = head.replace(/e$/u, '');
    for (const form of [`${head}s`, `${head}es`, `${stem}ed`, `${stem}ing`, `${head}d`, ...(IRREGULAR[head] ?? [])])
      words.add(form);
  }
  for (const forms of Object.values(IRREGULAR)) for (const form of forms) words.add(form);
  for (const word of [
    'favourite',
    'favorite',
    'no',
    'longer',
    'actually',
    'correction',
    'misspoke',
    'anymore',
    'instead',
  ])
    words.add(word);
  return words;
})();

/** Whether `text` has a word that can open a frame (see FRAME_WORDS). */
function mayStateClaims(text: string): boolean {
  // A word before a colon is a label ("the billing work: …", "Rent: …"), not a predicate or subject.
  for (const word of text
    .toLowerCase()
    .replace(/[\p{L}\p{N}']+:/gu, ' ')
    .split(/[^\p{L}\p{N}']+/u)) {
    if (FRAME_WORDS.has(word)) return true;
    const bare = word.replace(/'s$/u, '');
    if (bare !== word && FRAME_WORDS.has(bare)) return true;
  }
  return /'(?:s|m|re)\b/u.test(text);
}

// Verbs of a tool doing the work ("pnpm handles the workspaces").
const TOOL_VERBS = new Set([
  'handle',
  'run',
  'power',
  'build',
  'manage',
  'do',
  'serve',
  'host',
  'bundle',
  'test',
  'deploy',
  'drive',
  'back',
]);

// Words that say a thing is no more, after "is".
const GONE = new Set([
  'gone',
  'dead',
  'retired',
  'deprecated',
  'decommissioned',
  'history',
  'over',
  'cancelled',
  'canceled',
  'finished',
  'sunset',
  'sold',
  'totalled',
  'totaled',
  'stolen',
]);

const NEGATED_AFTER = new Set(['anymore', 'no more']);
const NEGATORS = new Set(['not', "n't", 'never', 'no', 'nor']);

interface Site {
  /** Index of the verb token. */
  at: number;
  /** Lemma with its particles ("move out", "give up"). */
  lemma: string;
  /** Index after the verb and its particles. */
  after: number;
  negated: boolean;
}

// Multi-word verbs every table names, by their first lemma, longest first.
const PHRASAL = (() => {
  const byHead = new Map<string, string[][]>();
  const add = (phrase: string) => {
    const words = phrase.split(' ');
    if (words.length < 2) return;
    const list = byHead.get(words[0]!) ?? [];
    if (!list.some((known) => known.join(' ') === phrase)) list.push(words);
    byHead.set(words[0]!, list);
  };
  for (const family of FAMILY_LIST)
    for (const table of [family.states, family.ends, family.statuses])
      for (const phrase of Object.keys(table ?? {})) add(phrase);
  for (const phrase of Object.keys(GENERIC_ENDS)) add(phrase);
  for (const list of byHead.values()) list.sort((a, b) => b.length - a.length);
  return byHead;
})();

function sitesOf(tokens: readonly Token[], from: number): Site[] {
  const sites: Site[] = [];
  for (let at = from; at < tokens.length; at += 1) {
    const token = tokens[at]!;
    if (token.pos !== 'VERB' && token.pos !== 'AUX' && !(token.lemma === 'stand' && tokens[at - 1]?.lemma === 'not'))
      continue;
    let lemma = token.lemma;
    let after = at + 1;
    for (const words of PHRASAL.get(lemma) ?? []) {
      const rest = words.slice(1);
      // "be a fan of", "can not stand": the words may sit after the verb as they are written.
      if (
        rest.every((word, offset) => tokens[at + 1 + offset]?.lower === word || tokens[at + 1 + offset]?.lemma === word)
      ) {
        lemma = words.join(' ');
        after = at + words.length;
        break;
      }
    }
    if (lemma === 'stand' && tokens[at - 1]?.lemma === 'not' && tokens[at - 2]?.lemma === 'can')
      lemma = 'can not stand';
    const window = tokens.slice(Math.max(from, at - 3), at);
    const negated =
      (token.negated && lemma !== 'can not stand') ||
      window.some(
        (before) => NEGATORS.has(before.lower) || (before.lower === 'longer' && window.some((w) => w.lower === 'no')),
      );
    sites.push({ at, lemma, after, negated });
  }
  return sites;
}

/** Where the words `intro` follow `start` (within a few tokens, not past another verb); the index after them. */
function introduced(tokens: readonly Token[], start: number, intro: string, reach = 8): number | undefined {
  if (intro === '') return start;
  const words = intro.split(' ');
  for (let at = start; at < Math.min(tokens.length, start + reach); at += 1) {
    if (at > start && (tokens[at]!.pos === 'VERB' || (tokens[at]!.shape === 'punctuation' && tokens[at]!.text !== ',')))
      return undefined;
    if (words.every((word, offset) => tokens[at + offset]?.lower === word)) return at + words.length;
  }
  return undefined;
}

// Nouns that head a phrase they end ("work laptop", "rent budget"): a family noun before one of them is a modifier.
const HEAD_NOUNS: ReadonlySet<string> = new Set([
  ...FAMILY_LIST.flatMap((family) => (family.nouns ?? []).flatMap((noun) => noun.split(' '))),
  ...Object.keys(THING_CATEGORY),
]);

/** The longest family noun inside `phrase`, as key, with the words before it as the thing it belongs to. */
function nounIn(family: Family, phrase: string): { key: string; thing: string } | undefined {
  if (!family.nouns || phrase === '') return undefined;
  const words = phrase.split(' ');
  let best: { key: string; thing: string; length: number } | undefined;
  for (const noun of family.nouns) {
    const nounWords = noun.split(' ');
    for (let at = 0; at + nounWords.length <= words.length; at += 1) {
      const here = words.slice(at, at + nounWords.length).map((word) => word.replace(/s$/u, ''));
      if (here.join(' ') !== noun.replace(/s$/u, '') && words.slice(at, at + nounWords.length).join(' ') !== noun)
        continue;
      // The noun must head the phrase: "work laptop" names a laptop, not work.
      const next = words[at + nounWords.length];
      if (next !== undefined && HEAD_NOUNS.has(next.replace(/s$/u, ''))) continue;
      if (best && best.length >= nounWords.length) continue;
      // A schedule's key is the whole phrase ("weekly design sync"); an amount's or setting's is the noun.
      const key =
        family.key === 'noun' && family.name === 'schedule' ? words.slice(0, at + nounWords.length).join(' ') : noun;
      const thing = family.name === 'schedule' ? '' : words.slice(0, at).join(' ');
      best = { key, thing, length: nounWords.length };
    }
  }
  return best && { key: best.key, thing: best.thing };
}

const toolName = (value: string) => subjectKey(value).replace(/\s+/gu, '-');

/** A tool's kind: from the table, by its name or its first word ("Node 20" → runtime). */
function toolKind(value: string): string | undefined {
  const name = toolName(value);
  return (
    TOOL_KIND.get(name) ?? TOOL_KIND.get(name.split('-')[0] ?? '') ?? TOOL_KIND.get(name.replace(/-?\d[\d.]*$/u, ''))
  );
}

/** A kind named in the clause ("our CI", "the test runner"). */
function kindNamed(tokens: readonly Token[], attribute: string): string | undefined {
  const text = ` ${attribute} ${tokens.map((token) => token.lower).join(' ')} `;
  let best: string | undefined;
  for (const words of Object.keys(KIND_WORDS))
    if (text.includes(` ${words} `) && (!best || words.length > best.length)) best = words;
  return best && KIND_WORDS[best];
}

function categoryOf(value: string, attribute: string): string | undefined {
  const words = `${attribute} ${value}`.toLowerCase().split(/\s+/u);
  for (const word of words) {
    const found = THING_CATEGORY[word.replace(/[^\p{L}\p{N}-]/gu, '')];
    if (found) return found;
  }
  return undefined;
}

interface Read {
  family: string;
  key: string;
  value: string;
  negated: boolean;
  from?: string;
  subject: string;
  at: number;
}

/** Reads one clause's claims. */
class ClauseReader {
  readonly found: Read[] = [];

  constructor(
    private readonly tokens: readonly Token[],
    private readonly predicate: number,
    private readonly subject: ClauseSubject,
    private readonly negatedAfter: boolean,
    /** Whom a bare noun ("Home is Porto") belongs to: the memory's subject so far. */
    private readonly fallback: string | undefined,
  ) {}

  private ownerFor(family: Family, thing: string, keyed = false): string | undefined {
    // "Our old office was in Kreuzberg": a possessive with a noun that names no attribute is about that thing.
    if (!keyed && this.subject.subject !== '' && this.subject.attribute !== '') return undefined;
    // "The frontend runs Node 20": a thing with no family noun is itself the subject.
    const bare = this.subject.subject === '';
    const named = bare ? (thing !== '' ? thing : keyed ? '' : subjectKey(this.subject.attribute)) : '';
    const owner = named !== '' ? (isOurWorld(named) ? 'we' : named) : this.subject.subject;
    if (owner === '') return family.shared ? 'user' : undefined;
    if (!this.subject.person && !family.shared && named === '') return undefined;
    // "We" is the user and the people the user speaks for.
    return owner === 'we' ? 'user' : owner;
  }

  private add(
    family: Family,
    subject: string | undefined,
    key: string,
    value: ValueSpan | string | undefined,
    site: Site | undefined,
    extra: Partial<Read> = {},
  ) {
    const text = typeof value === 'string' ? value : value?.text;
    if (!subject || text === undefined || normaliseValue(text) === '') return;
    let negated = (site?.negated ?? false) || (this.negatedAfter && family.onNegation !== 'skip');
    let final = text;
    if (negated) {
      if (family.onNegation === 'skip') return;
      if (family.onNegation === 'flip') {
        final = text === 'like' ? 'dislike' : text === 'dislike' ? 'like' : '';
        if (final === '') return;
        negated = false;
      }
    }
    this.found.push({
      family: family.name,
      key,
      value: final,
      negated,
      subject,
      at: site?.at ?? this.predicate,
      ...extra,
    });
  }

  read(sites: readonly Site[]): void {
    this.readToolAsSubject(sites);
    for (const family of FAMILY_LIST) this.readFamily(family, sites);
    if (this.found.length === 0) this.readAttribute(sites);
    this.readEnds(sites);
    this.readSwitches(sites);
  }

  /**
   * Any other attribute said with "is" of an owner: "Rachel's birthday is on March 12", "the wifi
   * password at the cabin is pinecone42", "my blood type is A positive". The key is the
   * attribute's own words, compared exactly, so only a restatement of the same attribute of the
   * same owner replaces it.
   */
  private readAttribute(sites: readonly Site[]): void {
    const { tokens, subject } = this;
    const be = sites[0];
    if (be?.lemma !== 'be' || subject.attribute === '' || be.negated) return;
    // "The weather is nice": an attribute of no one named is no one's fact.
    const qualified = tokens.slice(0, this.predicate).some((token) => ['at', 'for', 'of', 'in'].includes(token.lower));
    if (subject.subject === '' && !qualified) return;
    // "Our old office was in Kreuzberg" says what was, not what is.
    if (/\b(?:old|former|previous|ex|last|first)\b/u.test(subject.attribute)) return;
    const owner = subject.subject === '' ? 'user' : subject.subject === 'we' ? 'user' : subject.subject;
    let key = subject.attribute;
    // "The wifi password at the cabin": the place it belongs to is part of the attribute.
    const before = tokens.slice(0, this.predicate);
    const at = before.findIndex((token, index) => index > 0 && ['at', 'for', 'of', 'in'].includes(token.lower));
    if (at > 0) {
      const thing = thingAt(before, at + 1);
      if (thing) key = `${key} ${subjectKey(thing.text)}`;
    }
    let start = be.after;
    while (
      start < tokens.length &&
      ['now', 'still', 'actually', 'on', 'at', 'in', 'called', 'spelled', 'spelt'].includes(tokens[start]!.lower)
    )
      start += 1;
    // A name, a number, a date or a literal: "is awesome", "is a real boost" state no attribute's value.
    const head = tokens[skipFiller(tokens, start)];
    if (!head || (!['PROPN', 'NUM', 'X', 'SYM'].includes(head.pos) && !isTimeToken(head) && head.shape === 'word'))
      return;
    const value =
      valueAt('time', tokens, start) ??
      amountAt(tokens, start, Math.min(tokens.length, start + 3)) ??
      valueAt('literal', tokens, start) ??
      thingAt(tokens, start);
    if (!value || value.end - start > 6) return;
    this.found.push({ family: 'attribute', key, value: value.text, negated: false, subject: owner, at: be.at });
  }

  private readFamily(family: Family, sites: readonly Site[]): void {
    const { tokens, subject } = this;
    const named = nounIn(family, subject.attribute);
    // "My rent is €1,600", "the API base URL is now …", "the weekly sync moved to Friday".
    if (named && family.key === 'noun') {
      const owner = this.ownerFor(family, named.thing, true);
      const site = sites[0];
      const value = family.value === 'amount' ? amountAt(tokens, this.predicate) : this.valueAfterVerbs(family, sites);
      // "Design sync is on Tuesdays": a named event is the whole name.
      const eventKey =
        family.name === 'schedule' && !subject.person && subject.subject !== ''
          ? `${subject.subject} ${named.key}`
          : named.key;
      const eventOwner = eventKey !== named.key ? 'user' : owner;
      if (family.name === 'schedule' && sites.some((s) => GENERIC_ENDS[s.lemma] || family.ends?.[s.lemma])) {
        this.add(family, eventOwner, eventKey, '*', site, { negated: true });
        return;
      }
      if (family.name === 'schedule') {
        this.add(family, eventOwner, eventKey, value, site);
        return;
      }
      if (family.name === 'favourite') {
        const key = subject.attribute.replace(/\b(?:favourite|favorite|go-to|preferred)\b/gu, '').trim();
        this.add(family, owner, key, this.valueAfterVerbs(family, sites), site);
        return;
      }
      this.add(family, owner, named.key, value, site);
      return;
    }
    // "Home is Porto these days", "her job is …", "our family home is in Bristol": the noun names the family.
    if (named && family.key === 'none' && sites.some((site) => site.lemma === 'be' || site.lemma === 'become')) {
      const value =
        this.valueAfterVerbs(family, sites) ??
        (family.name === 'residence' ? this.placeLater(this.predicate) : undefined);
      const owner = subject.subject !== '' ? subject.subject : this.fallback;
      if (value && owner) {
        this.add(family, owner === 'we' ? 'user' : owner, '', value, sites[0]);
        return;
      }
    }
    // "My phone is an iPhone 12", "our CI is Buildkite now": the noun names the kind.
    if (named && family.key === 'category' && sites.some((site) => site.lemma === 'be' || site.lemma === 'become')) {
      // "My work laptop" and "my personal laptop" are two laptops: the owned thing's key keeps its words.
      const kind =
        family.name === 'tool' ? KIND_WORDS[named.key] : subject.attribute.replace(/\b(?:new|old|current)\s+/gu, '');
      const value =
        family.name === 'tool'
          ? this.valueAfterVerbs({ ...family, value: 'name' }, sites, true)
          : this.valueAfterVerbs(family, sites);
      if (kind && value) {
        this.add(family, this.ownerFor(family, named.thing, true), kind, value, sites[0]);
        return;
      }
    }
    for (const site of sites) {
      const intros = family.states?.[site.lemma];
      if (intros) this.readState(family, site, intros);
      if (site.lemma === 'be' || site.lemma === 'stay' || site.lemma === 'remain') this.readAfterBe(family, site);
    }
    if (family.statuses) this.readStatuses(family, sites);
  }

  /** The value after the clause's verbs and the words that introduce it ("is now", "moved to", "went up to"). */
  private valueAfterVerbs(family: Family, sites: readonly Site[], lowerNames = false): ValueSpan | undefined {
    const { tokens } = this;
    let at = sites.length > 0 ? sites[0]!.after : this.predicate;
    while (
      at < tokens.length &&
      (tokens[at]!.pos === 'AUX' ||
        ['been', 'being', 'become', 'changed', 'switched', 'moved', 'gone', 'updated'].includes(tokens[at]!.lower))
    )
      at += 1;
    while (
      at < tokens.length &&
      [
        'to',
        'at',
        'on',
        'for',
        'up',
        'down',
        'now',
        'back',
        'over',
        'from',
        'set',
        'changed',
        'still',
        'currently',
        'moved',
        'in',
      ].includes(tokens[at]!.lower)
    )
      at += 1;
    if (family.value === 'time') {
      for (let index = this.predicate; index < tokens.length; index += 1) {
        const time = valueAt('time', tokens, index);
        if (time) return time;
      }
      return undefined;
    }
    // "My dogs will be waiting": a verb where a thing should be is no value.
    if (family.value === 'thing' && tokens[skipFiller(tokens, at)]?.pos === 'VERB') return undefined;
    return lowerNames ? nameAt(tokens, at, true) : valueAt(family.value, tokens, at);
  }

  private readState(family: Family, site: Site, intros: readonly string[]): void {
    const { tokens, subject } = this;
    if (family.name === 'residence' && !subject.person) return;
    for (const intro of intros) {
      const start = introduced(tokens, site.after, intro);
      if (start === undefined) continue;
      const between = tokens.slice(site.after, intro === '' ? site.after : start - intro.split(' ').length);
      switch (family.key) {
        case 'none': {
          if (family.name === 'work') {
            const value = this.workValue(site, intro, start);
            if (value) {
              this.add(family, this.ownerFor(family, ''), '', value, site);
              return;
            }
            continue;
          }
          const value =
            valueAt(family.value, tokens, start) ?? (family.name === 'residence' ? this.placeLater(start) : undefined);
          if (!value) continue;
          if (family.name === 'residence' && (toolKind(value.text) || !subject.person)) continue;
          this.add(family, this.ownerFor(family, ''), '', value, site);
          return;
        }
        case 'object': {
          const object = thingAt(tokens, start) ?? nameAt(tokens, start, true);
          if (!object) continue;
          this.add(
            family,
            this.ownerFor(family, ''),
            normaliseValue(object.text),
            STANCE_OF[site.lemma] ?? 'like',
            site,
          );
          return;
        }
        case 'category': {
          const value = family.name === 'tool' ? nameAt(tokens, start, true) : thingAt(tokens, start);
          if (!value) continue;
          const kind =
            family.name === 'tool'
              ? (toolKind(value.text) ?? kindNamed(tokens.slice(this.predicate), subject.attribute))
              : categoryOf(value.text, subject.attribute);
          if (!kind) continue;
          if (
            family.name === 'tool' &&
            !toolKind(value.text) &&
            !kindNamed(tokens.slice(site.after, value.end + 3), subject.attribute)
          )
            continue;
          // "Our CI runs on Jenkins", "unit tests are written with Jest": the kind named, or the
          // thing the tool works for, is the user's own.
          const ownKind =
            family.name === 'tool' && (KIND_WORDS[subject.attribute] !== undefined || subject.subject === '');
          const scoped = this.scopeThing(value.end);
          const owner =
            ownKind && !scoped && subject.subject !== ''
              ? this.ownerFor(family, '', true)
              : this.ownerFor(family, scoped ?? '');
          this.add(family, owner, kind, value, site);
          return;
        }
        case 'noun': {
          // "I moved the weekly sync to Friday": the object names the attribute.
          const object = between
            .filter((token) => ['NOUN', 'PROPN', 'ADJ', 'NUM'].includes(token.pos) || token.text === '-')
            .map((token) => token.lower)
            .join(' ');
          const named =
            nounIn(family, object) ??
            (family.name === 'amount' && AMOUNT_KEY_OF_VERB[site.lemma]
              ? { key: AMOUNT_KEY_OF_VERB[site.lemma]!, thing: '' }
              : undefined) ??
            (family.name === 'setting' ? this.impliedSettingKey(start) : undefined);
          const forNoun = family.name === 'amount' ? this.nounAfterFor(family, site.after) : undefined;
          const key = named ?? forNoun;
          if (!key) continue;
          const value = family.value === 'amount' ? amountAt(tokens, site.after) : valueAt(family.value, tokens, start);
          if (!value) continue;
          const thing =
            key.thing !== '' ? key.thing : this.subject.subject === '' ? subjectKey(this.subject.attribute) : '';
          this.add(family, this.ownerFor(family, thing, true), key.key, value, site);
          return;
        }
      }
    }
  }

  /** "The API moved to https://…": a URL says the attribute is the address. */
  private impliedSettingKey(start: number): { key: string; thing: string } | undefined {
    const token = this.tokens[skipFiller(this.tokens, start)];
    return token && (token.shape === 'url' || /^https?:\/\//u.test(token.text)) ? { key: 'url', thing: '' } : undefined;
  }

  /** "lives in a small flat in Lisbon", "live in a farmhouse outside Lyon": the first place named after it. */
  private placeLater(start: number): ValueSpan | undefined {
    const { tokens } = this;
    for (let at = start; at < Math.min(tokens.length, start + 10); at += 1) {
      const token = tokens[at]!;
      if (token.pos === 'VERB' || (token.shape === 'punctuation' && token.text !== ',')) return undefined;
      if (['in', 'outside', 'to', 'at'].includes(token.lower)) {
        const place = valueAt('place', tokens, at + 1);
        if (place) return place;
      }
    }
    return undefined;
  }

  /** "pay €1,600 for rent": the noun after "for". */
  private nounAfterFor(family: Family, from: number): { key: string; thing: string } | undefined {
    const at = introduced(this.tokens, from, 'for', 6);
    if (at === undefined) return undefined;
    const thing = thingAt(this.tokens, at);
    return thing ? nounIn(family, thing.text.toLowerCase()) : undefined;
  }

  /** "on the backend", "for the docs site" after a tool: the thing it is used for. */
  private scopeThing(from: number): string | undefined {
    const { tokens } = this;
    for (let at = from; at < Math.min(tokens.length, from + 3); at += 1) {
      if (!['on', 'for', 'in'].includes(tokens[at]!.lower)) continue;
      const the = tokens[at + 1];
      if (!the || !['the', 'our', 'this'].includes(the.lower)) return undefined;
      const thing = thingAt(tokens, at + 2);
      return thing && !isTimeToken(tokens[at + 2]!) ? subjectKey(thing.text) : undefined;
    }
    return undefined;
  }

  private workValue(site: Site, intro: string, start: number): ValueSpan | undefined {
    const { tokens } = this;
    if (intro === 'as' || ['promote', 'become', 'move', 'make', 'step', 'name', 'appoint'].includes(site.lemma))
      return titleAt(tokens, start);
    const employer = nameAt(tokens, start);
    if (!employer) return titleAt(tokens, start);
    // "joined Stripe as a backend engineer".
    const as = introduced(tokens, employer.end, 'as', 3);
    const title = as === undefined ? undefined : titleAt(tokens, as);
    return title ? { text: `${title.text} at ${employer.text}`, end: title.end } : employer;
  }

  private readAfterBe(family: Family, read: Site): void {
    let site = read;
    const { tokens, subject } = this;
    if (!family.afterBe || family.key === 'noun' || family.key === 'object') return;
    if (family.name === 'residence' && !subject.person) return;
    let start = site.after;
    let negated = site.negated;
    while (
      start < tokens.length &&
      [
        'now',
        'still',
        'currently',
        'finally',
        'officially',
        'already',
        'back',
        'also',
        'again',
        'no',
        'longer',
        'not',
        'never',
      ].includes(tokens[start]!.lower)
    ) {
      if (['no', 'not', 'never'].includes(tokens[start]!.lower)) negated = true;
      start += 1;
    }
    site = { ...site, negated };
    for (const intro of family.afterBe) {
      if (intro === '') {
        if (family.name === 'work') {
          const title = titleAt(tokens, start);
          if (title) {
            this.add(family, this.ownerFor(family, ''), '', title, site);
            return;
          }
        }
        continue;
      }
      const words = intro.split(' ');
      if (!words.every((word, offset) => tokens[start + offset]?.lower === word)) continue;
      const at = start + words.length;
      if (family.name === 'residence') {
        const place = valueAt('place', tokens, at);
        // "she's in Valencia for a conference" is a visit, not a home.
        const visit = tokens
          .slice(place?.end ?? at, (place?.end ?? at) + 4)
          .some((token) => ['for', 'visiting', 'until'].includes(token.lower));
        if (place && !visit && !toolKind(place.text)) {
          this.add(family, this.ownerFor(family, ''), '', place, site);
          return;
        }
      } else if (family.name === 'work') {
        const employer = nameAt(tokens, at);
        if (employer && !isTimeToken(tokens[at]!)) {
          this.add(family, this.ownerFor(family, ''), '', employer, site);
          return;
        }
      } else if (family.name === 'tool') {
        const value = nameAt(tokens, at, true);
        const kind = value && toolKind(value.text);
        if (value && kind) {
          this.add(family, this.ownerFor(family, this.scopeThing(value.end) ?? ''), kind, value, site);
          return;
        }
      }
    }
  }

  private readStatuses(family: Family, sites: readonly Site[]): void {
    const { tokens } = this;
    const statuses = family.statuses!;
    for (const site of sites) {
      const own = statuses[site.lemma];
      if (own && !LINK_VERBS.has(site.lemma)) {
        // "got promoted to Director of Engineering": the title says more than the status.
        if (family.name === 'work' && site.lemma === 'promote') {
          const to = introduced(tokens, site.after, 'to', 3);
          const title = to === undefined ? undefined : titleAt(tokens, to);
          if (title) {
            this.add(family, this.ownerFor(family, ''), '', title, site);
            return;
          }
        }
        this.add(family, this.ownerFor(family, ''), '', own, site);
        return;
      }
      if (!LINK_VERBS.has(site.lemma)) continue;
      let at = site.after;
      while (
        at < tokens.length &&
        (['DET', 'ADV', 'PART'].includes(tokens[at]!.pos) ||
          [
            'fully',
            'strictly',
            'mostly',
            'officially',
            'now',
            'a',
            'an',
            'new',
            'happily',
            'finally',
            'still',
            'longer',
          ].includes(tokens[at]!.lower)) &&
        at < site.after + 4
      )
        at += 1;
      for (const length of [2, 1]) {
        const words = tokens.slice(at, at + length);
        if (words.length < length) continue;
        const phrase = words.map((token) => token.lower).join(' ');
        const lemmas = words.map((token) => token.lemma).join(' ');
        const value = statuses[phrase] ?? statuses[lemmas] ?? statuses[phrase.replace(/-/gu, ' ')];
        // "I'm no longer vegetarian", "she's not single".
        const negated =
          site.negated ||
          tokens.slice(site.after, at).some((token) => NEGATORS.has(token.lower) || token.lower === 'longer');
        if (value) {
          this.add(family, this.ownerFor(family, ''), '', value, { ...site, negated });
          return;
        }
      }
    }
    if (family.name === 'relationship') {
      // "tied the knot", "broke up": the words anywhere after the predicate.
      for (const site of sites) {
        if (site.lemma === 'tie' && tokens.slice(site.after, site.after + 3).some((token) => token.lower === 'knot')) {
          this.add(family, this.ownerFor(family, ''), '', 'married', site);
          return;
        }
        if (site.lemma === 'break up' || site.lemma === 'split up') {
          this.add(family, this.ownerFor(family, ''), '', 'single', site);
          return;
        }
      }
    }
    if (family.name === 'diet') this.readDietVerbs(family, sites);
  }

  /** "stopped eating meat", "gave up dairy", "eats fish again". */
  private readDietVerbs(family: Family, sites: readonly Site[]): void {
    const { tokens } = this;
    for (const site of sites) {
      const food = (from: number) => tokens.slice(from, from + 3).find((token) => DIET_FOODS.includes(token.lower));
      if (['stop', 'quit', 'give up', 'cut', 'avoid'].includes(site.lemma)) {
        const found = food(site.after) ?? food(site.after + 1);
        if (found) {
          this.add(family, this.ownerFor(family, ''), '', `no ${found.lower}`, { ...site, negated: false });
          return;
        }
      }
      if (site.lemma === 'eat') {
        const found = food(site.after);
        const again = tokens.slice(site.after, site.after + 5).some((token) => ['again', 'now'].includes(token.lower));
        if (found && (again || site.negated || tokens[site.at - 1]?.lemma === 'start')) {
          const value = site.negated ? `no ${found.lower}` : `eats ${found.lower}`;
          this.add(family, this.ownerFor(family, ''), '', value, { ...site, negated: false });
          return;
        }
      }
    }
  }

  /** "left Barcelona", "sold the Volvo", "cancelled the standup": ends whatever value it names. */
  private readEnds(sites: readonly Site[]): void {
    const { tokens, subject } = this;
    // "Yarn is gone", "the Golf is dead": the thing itself, said to be no more.
    const first = sites[0];
    if (first?.lemma === 'be' && subject.subject !== '' && !subject.person) {
      const word = tokens[skipFiller(tokens, first.after)]?.lower ?? '';
      if (GONE.has(word))
        this.found.push({ family: '*', key: '', value: subject.subject, negated: true, subject: 'user', at: first.at });
    }
    for (const site of sites) {
      const intros =
        GENERIC_ENDS[site.lemma] ?? FAMILY_LIST.find((family) => family.ends?.[site.lemma])?.ends?.[site.lemma];
      if (!intros || site.negated) continue;
      for (const intro of intros) {
        const start = introduced(tokens, site.after, intro, 3);
        if (start === undefined) continue;
        const value = nameAt(tokens, start, true) ?? thingAt(tokens, start);
        if (!value) continue;
        // "left Google for Stripe" / "ditched Jenkins for GitHub Actions": a switch, read below.
        const owner = this.subject.subject === '' ? 'user' : this.subject.subject;
        this.found.push({ family: '*', key: '', value: value.text, negated: true, subject: owner, at: site.at });
        break;
      }
    }
  }

  /** "pnpm handles the workspaces now", "Buildkite runs our builds": a tool named as the one doing the work. */
  private readToolAsSubject(sites: readonly Site[]): void {
    const { subject } = this;
    const site = sites[0];
    const name = subject.person ? '' : subject.subject !== '' ? subject.subject : subjectKey(subject.attribute);
    const kind = name !== '' ? toolKind(name) : undefined;
    if (!kind || !site || !TOOL_VERBS.has(site.lemma) || site.negated) return;
    this.found.push({ family: 'tool', key: kind, value: name, negated: false, subject: 'user', at: site.at });
  }

  /** "We upgraded Postgres to 16", "bumped Node to 22", "pinned Stripe to 2023-10-16": the tool at that version. */
  private readVersionBump(site: Site): boolean {
    const { tokens } = this;
    if (!['upgrade', 'bump', 'update', 'downgrade', 'pin', 'move', 'roll', 'migrate'].includes(site.lemma))
      return false;
    const named = nameAt(tokens, site.after, true);
    const kind = named && toolKind(named.text);
    if (!named || !kind || /\d/u.test(named.text)) return false;
    const to = introduced(tokens, named.end, 'to', 3);
    const version = to === undefined ? undefined : tokens[to];
    if (!version || !/^v?\d[\w.-]*$/u.test(version.text)) return false;
    const owner = this.ownerFor(tool, this.scopeThing(to! + 1) ?? '');
    this.add(tool, owner, kind, `${named.text} ${version.text}`, site);
    return true;
  }

  /** "switched from X to Y", "replaced X with Y", "dropped X for Y": Y replaces X, whatever family Y is read in. */
  private readSwitches(sites: readonly Site[]): void {
    const { tokens } = this;
    for (const site of sites) {
      if (this.readVersionBump(site)) continue;
      let from: ValueSpan | undefined;
      let to: ValueSpan | undefined;
      if (SWITCH_VERBS.has(site.lemma)) {
        const fromAt = introduced(tokens, site.after, 'from', 6);
        if (fromAt === undefined) continue;
        from = nameAt(tokens, fromAt, true) ?? thingAt(tokens, fromAt);
        const toAt = from && introduced(tokens, from.end, 'to', 3);
        to =
          toAt === undefined || toAt === null
            ? undefined
            : (nameAt(tokens, toAt, true) ?? thingAt(tokens, toAt) ?? amountAt(tokens, toAt));
      } else if (REPLACE_VERBS.has(site.lemma)) {
        from = nameAt(tokens, site.after, true) ?? thingAt(tokens, skipFiller(tokens, site.after));
        const joinAt =
          from &&
          (introduced(tokens, from.end, 'with', 3) ??
            introduced(tokens, from.end, 'for', 3) ??
            introduced(tokens, from.end, 'by', 3));
        to =
          joinAt === undefined || joinAt === null
            ? undefined
            : (nameAt(tokens, joinAt, true) ?? thingAt(tokens, joinAt));
      }
      if (!from || !to) continue;
      const owner = this.subject.subject === '' ? 'user' : this.subject.subject;
      const fromValue = normaliseValue(from.text);
      // Y as a family already read it ("moved from Madrid to Barcelona" is a residence): name what it replaces.
      const same = this.found.find((read) => read.at === site.at && !read.negated && read.family !== '*');
      if (same) {
        same.from = fromValue;
        // The generic end of X is implied by the switch.
        for (let index = this.found.length - 1; index >= 0; index -= 1)
          if (this.found[index]!.family === '*' && normaliseValue(this.found[index]!.value) === fromValue)
            this.found.splice(index, 1);
        continue;
      }
      const kind = toolKind(to.text) ?? toolKind(from.text);
      const ownerTool = kind ? (this.subject.subject === 'we' || this.subject.subject === '' ? 'user' : owner) : owner;
      for (let index = this.found.length - 1; index >= 0; index -= 1)
        if (this.found[index]!.family === '*' && normaliseValue(this.found[index]!.value) === fromValue)
          this.found.splice(index, 1);
      this.found.push({
        family: kind ? 'tool' : '*',
        key: kind ?? '',
        value: to.text,
        negated: false,
        from: fromValue,
        subject: ownerTool,
        at: site.at,
      });
    }
  }
}

/** "Hannah's in Utrecht", "Tom's now a manager": an "'s" before a preposition, adverb or article is "is". */
function possessiveOrIs(tokens: Token[]): Token[] {
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.lower !== "'s" || token.pos === 'AUX' || tokens[index - 1]!.pos !== 'PROPN') continue;
    const next = tokens[index + 1];
    const adjectiveOfNoun = next?.pos === 'ADJ' && ['NOUN', 'PROPN'].includes(tokens[index + 2]?.pos ?? '');
    if (
      next &&
      ['ADP', 'ADV', 'DET', 'VERB', 'ADJ', 'NUM', 'AUX', 'PART'].includes(next.pos) &&
      next.lower !== 'own' &&
      !adjectiveOfNoun
    )
      tokens[index] = { ...token, pos: 'AUX', lemma: 'be' };
  }
  return tokens;
}

function expandContractions(text: string): string {
  return text
    .replace(/\bI'm\b/gu, 'I am')
    .replace(/\b(I|you|we|they)'ve\b/giu, '$1 have')
    .replace(/\b(you|we|they)'re\b/giu, '$1 are')
    .replace(/\b(I|you|we|they|he|she)'ll\b/giu, '$1 will')
    .replace(/\bcan't\b/giu, 'can not')
    .replace(/\bcannot\b/giu, 'can not')
    .replace(/\bwon't\b/giu, 'will not');
}

/** The text with correction phrasing rewritten, clause by clause ("Actually it's X, not Y" → "it's X"). */
function withCorrectionsRead(text: string): string {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\d"])|\n+/u)
    .map((sentence) =>
      sentence
        .split(/(\s*;\s*|\s+[—–]\s+)/u)
        .map((part, index) => (index % 2 === 1 ? part : rewriteCorrections(part)))
        .join(''),
    )
    .join('\n');
}

/** Splits tokens into clauses: at sentence ends, strong punctuation, and a conjunction or comma that starts a new subject or verb. */
function clausesOf(tokens: readonly Token[]): Token[][] {
  const clauses: Token[][] = [];
  let current: Token[] = [];
  const flush = () => {
    if (current.length > 0) clauses.push(current);
    current = [];
  };
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const previous = tokens[index - 1];
    if (previous && previous.sentence !== token.sentence) flush();
    if (
      CLAUSE_BREAKS.has(token.text) ||
      (token.text === '-' && tokens[index + 1]?.text !== '-' && previous?.shape !== 'word')
    ) {
      flush();
      continue;
    }
    const hasVerb = current.some((word) => word.pos === 'VERB' || word.pos === 'AUX');
    if ((token.pos === 'CCONJ' || token.text === ',' || token.lower === 'so' || token.lower === 'then') && hasVerb) {
      const next = tokens[index + 1];
      const after = tokens[index + 2];
      const newSubject =
        next &&
        ['PRON', 'PROPN'].includes(next.pos) &&
        after &&
        ['AUX', 'VERB'].includes(after.pos) &&
        !['my', 'our', 'his', 'her', 'their'].includes(next.lower);
      const newVerb =
        next && token.pos === 'CCONJ' && (next.pos === 'VERB' || (next.pos === 'ADV' && after?.pos === 'VERB'));
      if (newSubject || newVerb) {
        flush();
        continue;
      }
    }
    current.push(token);
  }
  flush();
  return clauses;
}

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
