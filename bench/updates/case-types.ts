/**
 * The shape of a `bench:updates` case: facts that change over time, retained through memoir's
 * public API, then asked about now and about the past.
 */

/** One fact of a case: its text, when it became true, and the entities it names. */
export interface UpdateFact {
  id: string;
  text: string;
  /** When the fact became true (ISO date); retained as `occurredAt`. */
  date: string;
  entities?: string[];
  /**
   * The subject and attribute this fact gives a value for ("me/residence",
   * "api/base-url"). Facts of one case with the same slot are versions of one thing; a
   * supersession link between facts of two different slots, or to a fact with no slot, joins
   * two different subjects and counts against the link precision.
   */
  slot?: string;
}

/** A question and the fact that answers it; `stale` is the fact that must rank below it. */
export interface UpdateQuestion {
  query: string;
  answer: string;
  stale: string;
  /** A question about the past: the older fact is the right answer. */
  past?: boolean;
  /** Answer as of this date (the `asOf` option). */
  asOf?: string;
}

/** One case: facts retained in `order` (default: as listed), and questions. */
export interface UpdateCase {
  kind: string;
  facts: UpdateFact[];
  /** The order facts are retained in, when not as listed (late arrivals). */
  order?: string[];
  questions: UpdateQuestion[];
}
