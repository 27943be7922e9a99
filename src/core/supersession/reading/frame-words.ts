/**
 * The words frames open with: verbs that end or switch any value, link verbs, negators, and the
 * set of every word that can open a frame, which decides whether a memory is parsed at all.
 */
import { FAMILY_LIST } from './families/index.js';
import { TOOL_KIND } from './families/tool.js';

export const LINK_VERBS = new Set([
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
export const SWITCH_VERBS = new Set([
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
export const REPLACE_VERBS = new Set([
  'replace',
  'swap',
  'trade',
  'exchange',
  'ditch',
  'drop',
  'dump',
  'abandon',
  'leave',
]);
// Verbs that end whatever value they name, in any family ("left Barcelona", "sold the Volvo").
export const GENERIC_ENDS: Readonly<Record<string, readonly string[]>> = {
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
export const VERB_FORMS: ReadonlyMap<string, string> = (() => {
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
export const IRREGULAR: Readonly<Record<string, readonly string[]>> = {
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
 * The forms a lemma's first word may be written in, generously ("move" → move, moves, moved,
 * moving…; "leave" → left): a word gate may say yes wrongly, never no wrongly.
 */
function wordFormsOf(lemma: string): string[] {
  const head = lemma.split(' ')[0]!;
  const stem = head.replace(/e$/u, '');
  return [head, `${head}s`, `${head}es`, `${stem}ed`, `${stem}ing`, `${head}d`, ...(IRREGULAR[head] ?? [])];
}

/**
 * Every word that can open a frame: the forms of every verb the tables name, the statuses and
 * nouns. A text with none of them states no claim, and is not parsed — most of what an agent
 * retains ("Ravi fixed the ledger build") costs one word lookup each, not a parse.
 */
export const FRAME_WORDS: ReadonlySet<string> = (() => {
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
    for (const form of wordFormsOf(lemma)) words.add(form);
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
export function mayStateClaims(text: string): boolean {
  // A word before a colon is a label ("the billing work: …", "Rent: …"), not a predicate or subject.
  const words = text
    .toLowerCase()
    .replace(/[\p{L}\p{N}']+:/gu, ' ')
    .split(/[^\p{L}\p{N}']+/u);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const bare = word.replace(/'s$/u, '');
    const found = FRAME_WORDS.has(word) ? word : bare !== word && FRAME_WORDS.has(bare) ? bare : undefined;
    if (found === undefined) continue;
    // "migrated … to", "tested … with": a verb read only with its preposition needs it later on.
    const needs = needsOf(found);
    if (
      needs === undefined ||
      words.slice(index + 1).some((later) => needs.has(later) || (needs.has(TOOL) && TOOL_KIND.has(later)))
    )
      return true;
  }
  return /'(?:s|m|re)\b/u.test(text);
}

// A need for any tool's name (a tool doing the work: "pnpm handles the workspaces").
const TOOL = '#tool';

/**
 * For each verb form read only with a preposition after it, the words it needs after it; a form
 * with an object-taking frame anywhere needs nothing (undefined).
 */
let needsTable: ReadonlyMap<string, ReadonlySet<string> | null> | undefined;
function buildNeeds(): ReadonlyMap<string, ReadonlySet<string> | null> {
  const needs = new Map<string, Set<string> | null>();
  const need = (lemma: string, intros: readonly string[] | null) => {
    const forms = wordFormsOf(lemma);
    // A phrasal verb's particle ("move out", "give up") is itself what it needs after it.
    const words =
      intros === null || intros.includes('')
        ? lemma.includes(' ')
          ? [lemma.split(' ')[1]!]
          : null
        : intros.map((intro) => intro.split(' ')[0]!);
    for (const form of forms) {
      const known = needs.get(form);
      if (known === null) continue;
      if (words === null) needs.set(form, null);
      else needs.set(form, new Set([...(known ?? []), ...words]));
    }
  };
  for (const family of FAMILY_LIST)
    for (const table of [family.states, family.ends])
      for (const [lemma, intros] of Object.entries(table ?? {})) need(lemma, intros);
  for (const [lemma, intros] of Object.entries(GENERIC_ENDS)) need(lemma, intros);
  for (const lemma of SWITCH_VERBS) need(lemma, ['from']);
  for (const lemma of ['upgrade', 'bump', 'pin', 'update', 'downgrade', 'roll']) need(lemma, ['to']);
  for (const lemma of TOOL_VERBS) need(lemma, [TOOL]);
  // Verbs whose statuses or objects are read right after them.
  for (const lemma of [
    ...REPLACE_VERBS,
    ...LINK_VERBS,
    'promote',
    'retire',
    'stop',
    'quit',
    'cut',
    'avoid',
    'eat',
    'tie',
  ])
    need(lemma, null);
  for (const family of FAMILY_LIST) for (const lemma of Object.keys(family.statuses ?? {})) need(lemma, null);
  return needs;
}

function needsOf(word: string): ReadonlySet<string> | undefined {
  needsTable ??= buildNeeds();
  const found = needsTable.get(word);
  return found === null ? undefined : found;
}

// Verbs of a tool doing the work ("pnpm handles the workspaces").
export const TOOL_VERBS = new Set([
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
export const GONE = new Set([
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

export const NEGATED_AFTER = new Set(['anymore', 'no more']);
export const NEGATORS = new Set(['not', "n't", 'never', 'no', 'nor']);
