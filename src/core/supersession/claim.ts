/**
 * What the supersession rules read out of a fact: who it is about, which attribute, and the
 * value it states. Two claims about the same subject and attribute with different values
 * mean the older fact is no longer current.
 */

/** One statement a fact makes about a subject's attribute. */
export interface Claim {
  /** Who or what the claim is about: `user`, `we` (the user's team or project), or an entity name, lower-cased. A relation of either is `user/sister`. */
  subject: string;
  /** The attribute's family (`residence`, `employer`, `stance`, `amount`, `schedule`, `tool`, …). */
  family: string;
  /** Which attribute of the family (`rent`, `weekly sync`, `test runner`, the object of a like); empty when the family is the attribute. */
  key: string;
  /** The value stated, normalised (lower case, no articles or trailing detail). */
  value: string;
  /** True when the fact says the value no longer holds ("no longer lives in Berlin"). */
  negated: boolean;
  /** For a switch ("moved from jest to vitest"): the value it replaces. */
  from?: string;
  /** The rule that read it, for the reason recorded on the superseded memory. */
  rule: string;
}

/** How claims of a family are compared. */
export interface FamilyPolicy {
  /**
   * `exact`: keys must be equal (`stance` of `tea` and of `green tea` are two attributes);
   * `subset`: one key's words inside the other's are the same attribute (`sync` and `weekly sync`).
   */
  keyMatch: 'exact' | 'subset';
}

/** A clause with the subject the rules read it about. */
export interface Clause {
  /** The clause as written (correction phrasing already rewritten). */
  text: string;
  /** Subject mentions in the clause, by position, for a rule to pick the one before its predicate. */
  mentions: readonly SubjectMention[];
  /** The subject a clause without its own mention inherits (the sentence's, or the memory's entity). */
  fallback: string | undefined;
}

/** A place in a clause where a subject is named. */
export interface SubjectMention {
  /** Offset of the mention's end in the clause text. */
  end: number;
  /** The subject it names. */
  subject: string;
  /** A possessive ("my", "Peter's"): what follows names an attribute or a relation, not the subject itself. */
  possessive: boolean;
}

/** What a rule found in a clause; the subject is resolved by the caller from where it matched. */
export interface RuleMatch {
  /** Where the predicate starts in the clause (the subject is the nearest mention before it). */
  index: number;
  /** The attribute family. */
  family: string;
  /** The key within the family. */
  key: string;
  /** The raw value (normalised by the caller). */
  value: string;
  /** The value it replaces, for switches. */
  from?: string;
  /** Negated by the rule itself ("left Google", "cancelled"). */
  negated?: boolean;
  /**
   * A subject the rule read itself (a schedule's event, a config key's owner), used instead
   * of the mention before the predicate.
   */
  subject?: string;
}

/**
 * One concern of the rule set (where someone lives, what they own, …). Rules are small and
 * conservative: they match only phrasings that state a value, and leave everything else alone.
 */
export interface ClaimRule {
  /** The rule's name, recorded in the reason ("residence"). */
  name: string;
  /** How its families compare keys. */
  families: Readonly<Record<string, FamilyPolicy>>;
  /**
   * What a negation before the predicate means ("doesn't live in X", "don't like X"):
   * `negate` the claim, `flip` it to its opposite value (like → dislike), or `skip` it.
   */
  onNegation: 'negate' | 'flip' | 'skip';
  /** The opposite value for `flip`. */
  flip?: (value: string) => string | undefined;
  /**
   * A cheap test on the clause in lower case that is true whenever `match` could find
   * anything (the words every one of its patterns needs): most facts state none of the
   * concerns, and the patterns cost far more than a word lookup. It may say yes wrongly,
   * never no wrongly.
   */
  mayMatch(lowerCaseClause: string): boolean;
  /** Every statement of the concern in one clause. */
  match(clause: string): RuleMatch[];
}
