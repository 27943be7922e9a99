/** Reading one clause: every family's frames over its predicate, then the ends and switches of any value. */
import { normaliseValue } from '../values-compare.js';
import { AMOUNT_KEY_OF_VERB } from './families/amount.js';
import { DIET_FOODS } from './families/diet.js';
import { FAMILY_LIST } from './families/index.js';
import { STANCE_OF } from './families/preference.js';
import { KIND_WORDS, tool } from './families/tool.js';
import type { Family } from './family.js';
import { GENERIC_ENDS, GONE, LINK_VERBS, NEGATORS, REPLACE_VERBS, SWITCH_VERBS, TOOL_VERBS } from './frame-words.js';
import { categoryOf, kindNamed, nounIn, toolKind } from './nouns-and-kinds.js';
import type { Token } from './parser.js';
import { introduced, type Site } from './sites.js';
import { type ClauseSubject, isOurWorld, subjectKey, thingKey } from './subject.js';
import { amountAt, isTimeToken, nameAt, skipFiller, thingAt, titleAt, type ValueSpan, valueAt } from './values.js';

/** A claim as one clause reads it, before it is normalised. */
export interface Read {
  family: string;
  key: string;
  value: string;
  negated: boolean;
  from?: string;
  subject: string;
  at: number;
}

/** Reads one clause's claims. */
export class ClauseReader {
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
    const named = bare ? thingKey(thing !== '' ? thing : keyed ? '' : this.subject.attribute) : '';
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
      return thing && !isTimeToken(tokens[at + 2]!) ? thingKey(thing.text) : undefined;
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
