/**
 * What a family of attributes is, as data: the lemmas and frames that state its value, the
 * words that end it, the nouns that name it, and what its values look like. The reader
 * (read-clause.ts) is one piece of code over these tables; a family is a file of words.
 */

/** What a value looks like, and so how it is read from the tokens after its frame. */
export type ValueKind =
  /** A proper name of a place ("Valencia", "New York City"). */
  | 'place'
  /** A proper name of an organisation or person ("Adyen", "GitHub"). */
  | 'name'
  /** A job title, with its employer when one follows ("Director of Engineering at Adyen"). */
  | 'title'
  /** A number with its unit or currency ("€1,600", "95k", "72 kg"). */
  | 'amount'
  /** A day, date or clock time ("Friday", "10am", "the 3rd of May"). */
  | 'time'
  /** A noun phrase ("a Tesla Model 3", "the blue bike"). */
  | 'thing'
  /** A URL, host, port number or other literal ("https://api.acme.io/v2", "8080"). */
  | 'literal';

/** The words that introduce a value after a predicate: prepositions, or `''` for its object. */
export type Introducers = readonly string[];

/** One family of attributes. */
export interface Family {
  /** Its name, recorded in a claim and in the reason a link gives. */
  name: string;
  /** `exact`: keys must be equal; `subset`: one key's words inside the other's name one attribute ("sync" / "weekly sync"). */
  keyMatch: 'exact' | 'subset';
  /** What its values look like. */
  value: ValueKind;
  /**
   * Where the key within the family comes from: `none` (the family is the attribute), `noun`
   * (the noun naming it: "rent", "weekly sync"), `object` (what a like is about), `category`
   * (a tool's kind: "package manager").
   */
  key: 'none' | 'noun' | 'object' | 'category';
  /** Verb lemmas that state the value, each with what introduces it ("live": in, at). */
  states?: Readonly<Record<string, Introducers>>;
  /** Verb lemmas that say the value named no longer holds ("leave": its object). */
  ends?: Readonly<Record<string, Introducers>>;
  /** After "be" (or "stay", "remain"): what introduces the value ("in" of "she's in Valencia"). */
  afterBe?: Introducers;
  /** Words that are the value when said of the subject ("vegan", "single", "freelance"), to the value they state. */
  statuses?: Readonly<Record<string, string>>;
  /** Nouns that name the attribute ("rent", "salary", "home"): "my rent is X", "rent went up to X". */
  nouns?: readonly string[];
  /** The user's shared world: "we" and an unnamed owner are the user (tools, settings, schedules, amounts). */
  shared?: boolean;
  /**
   * Whether a negated statement ends whatever value the slot holds ("they are no longer together"
   * ends "dating" and "married"), not only the value it names.
   */
  negationEndsAny?: boolean;
  /** A negated statement: `negate` it ("doesn't live in X"), `flip` it (like → dislike) or `skip` it. */
  onNegation: 'negate' | 'flip' | 'skip';
}
