/**
 * What the parser reads out of a fact: who it is about, which attribute, and the value it
 * states. Two claims about the same subject and attribute with different values mean the older
 * fact is no longer current.
 */

/** One statement a fact makes about a subject's attribute. */
export interface Claim {
  /** Who or what the claim is about: `user`, `we` (the user's team or project), or an entity name, lower-cased. A relation of either is `user/sister`. */
  subject: string;
  /** The attribute's family (`residence`, `work`, `stance`, `amount`, `schedule`, `tool`, …); `*` for "left X", which names none. */
  family: string;
  /** Which attribute of the family (`rent`, `weekly sync`, `test runner`, the object of a like); empty when the family is the attribute. */
  key: string;
  /** The value stated, normalised (lower case, no articles or trailing detail). */
  value: string;
  /** True when the fact says the value no longer holds ("no longer lives in Berlin"). */
  negated: boolean;
  /** For a switch ("moved from jest to vitest"): the value it replaces. */
  from?: string;
  /** The family (or `switch`) that read it, for the reason recorded on the superseded memory. */
  rule: string;
}
