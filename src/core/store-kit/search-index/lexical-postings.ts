import { BM25_B, BM25_K1, bm25Idf } from '../../text/bm25-index.js';
import { ensureCapacity } from './growable.js';
import { bytesOf, fromJson, jsonBytes, part, type SnapshotParts, viewOf } from './snapshot-parts.js';

/** The corpus a scoped search takes its statistics from: the tenant's slots and their size. */
export interface ScoringCorpus {
  /** True for the corpus's slots; slots outside it are neither counted nor scored. */
  test: (slot: number) => boolean;
  /** Live slots in the corpus. */
  live: number;
  /** Their lengths in terms, summed. */
  totalLength: number;
}

/** Receives each matching live slot with its BM25 score. */
export type ScoredSlots = (slots: Int32Array, scores: Float64Array, count: number) => void;

/**
 * An inverted index over slots, scored with the same BM25 as the in-memory store (k1 1.2,
 * b 0.75, Lucene idf), so both stores rank alike. Postings of dead slots stay until the
 * index is rebuilt; they are skipped, and document frequencies count live slots only.
 */
export class LexicalPostings {
  #termIds = new Map<string, number>();
  #postingSlots: Int32Array[] = [];
  #postingFrequencies: Uint16Array[] = [];
  #postingLengths = new Int32Array(0);
  #documentFrequency = new Int32Array(0);
  /** Every slot's distinct terms, back to back; `#termStart[slot]` … `#termStart[slot + 1]`. */
  #slotTerms = new Int32Array(0);
  #termStart = new Int32Array(1);
  #lengths = new Int32Array(0);
  #counts = new Int32Array(0);
  readonly #distinct: number[] = [];
  #totalLength = 0;
  #live = 0;
  // Scratch space reused by every search.
  #scores = new Float64Array(0);
  #touched = new Int32Array(0);

  /** Reserve room for `slots` slots of about `termsPerSlot` distinct terms (a full load knows). */
  reserve(slots: number, termsPerSlot: number): void {
    this.#termStart = ensureCapacity(this.#termStart, slots + 1, Int32Array);
    this.#lengths = ensureCapacity(this.#lengths, slots, Int32Array);
    this.#slotTerms = ensureCapacity(this.#slotTerms, slots * termsPerSlot, Int32Array);
  }

  /** Index the terms of `slot` (slots arrive in increasing order). */
  add(slot: number, terms: string): void {
    // Per-document counts in a scratch array indexed by term: no Map per document.
    const distinct = this.#distinct;
    distinct.length = 0;
    let length = 0;
    let start = 0;
    for (let end = 0; end <= terms.length; end++) {
      if (end < terms.length && terms.charCodeAt(end) !== 32) continue;
      if (end > start) {
        const term = this.#termId(terms.slice(start, end));
        if (this.#counts[term] === 0) distinct.push(term);
        this.#counts[term]!++;
        length++;
      }
      start = end + 1;
    }
    const first = this.#termStart[slot]!;
    this.#slotTerms = ensureCapacity(this.#slotTerms, first + distinct.length, Int32Array);
    this.#termStart = ensureCapacity(this.#termStart, slot + 2, Int32Array);
    this.#lengths = ensureCapacity(this.#lengths, slot + 1, Int32Array);
    let offset = first;
    for (const term of distinct) {
      const frequency = this.#counts[term]!;
      this.#counts[term] = 0;
      this.#slotTerms[offset++] = term;
      const at = this.#postingLengths[term]!;
      if (at === this.#postingSlots[term]!.length) {
        this.#postingSlots[term] = ensureCapacity(this.#postingSlots[term]!, at + 1, Int32Array);
        this.#postingFrequencies[term] = ensureCapacity(this.#postingFrequencies[term]!, at + 1, Uint16Array);
      }
      this.#postingSlots[term]![at] = slot;
      this.#postingFrequencies[term]![at] = Math.min(frequency, 65_535);
      this.#postingLengths[term] = at + 1;
      this.#documentFrequency[term]!++;
    }
    this.#termStart[slot + 1] = offset;
    this.#lengths[slot] = length;
    this.#totalLength += length;
    this.#live++;
  }

  /** The postings of `slotCount` slots as snapshot parts. */
  toParts(parts: SnapshotParts, slotCount: number): void {
    const terms = this.#postingSlots.length;
    let total = 0;
    for (let term = 0; term < terms; term++) total += this.#postingLengths[term]!;
    const slots = new Int32Array(total);
    const frequencies = new Uint16Array(total);
    let at = 0;
    for (let term = 0; term < terms; term++) {
      const n = this.#postingLengths[term]!;
      slots.set(this.#postingSlots[term]!.subarray(0, n), at);
      frequencies.set(this.#postingFrequencies[term]!.subarray(0, n), at);
      at += n;
    }
    parts.set('postings.terms', jsonBytes([...this.#termIds.keys()]));
    parts.set('postings.lengths', bytesOf(this.#postingLengths.subarray(0, terms)));
    parts.set('postings.slots', bytesOf(slots));
    parts.set('postings.frequencies', bytesOf(frequencies));
    parts.set('postings.df', bytesOf(this.#documentFrequency.subarray(0, terms)));
    parts.set('postings.slotTerms', bytesOf(this.#slotTerms.subarray(0, this.#termStart[slotCount]!)));
    parts.set('postings.termStart', bytesOf(this.#termStart.subarray(0, slotCount + 1)));
    parts.set('postings.docLengths', bytesOf(this.#lengths.subarray(0, slotCount)));
    parts.set('postings.totals', jsonBytes({ totalLength: this.#totalLength, live: this.#live }));
  }

  /** Postings restored from {@link LexicalPostings.toParts}. */
  static fromParts(parts: SnapshotParts): LexicalPostings {
    const postings = new LexicalPostings();
    const terms = fromJson<string[]>(part(parts, 'postings.terms'));
    const lengths = viewOf(part(parts, 'postings.lengths'), Int32Array);
    const slots = viewOf(part(parts, 'postings.slots'), Int32Array);
    const frequencies = viewOf(part(parts, 'postings.frequencies'), Uint16Array);
    if (lengths.length !== terms.length) throw new Error('search index snapshot postings disagree');
    postings.#termIds = new Map(terms.map((term, id) => [term, id]));
    postings.#postingLengths = lengths;
    postings.#documentFrequency = viewOf(part(parts, 'postings.df'), Int32Array);
    postings.#counts = new Int32Array(terms.length);
    let at = 0;
    for (let term = 0; term < terms.length; term++) {
      const n = lengths[term]!;
      postings.#postingSlots.push(slots.subarray(at, at + n));
      postings.#postingFrequencies.push(frequencies.subarray(at, at + n));
      at += n;
    }
    if (at !== slots.length) throw new Error('search index snapshot postings disagree');
    postings.#slotTerms = viewOf(part(parts, 'postings.slotTerms'), Int32Array);
    postings.#termStart = viewOf(part(parts, 'postings.termStart'), Int32Array);
    postings.#lengths = viewOf(part(parts, 'postings.docLengths'), Int32Array);
    const totals = fromJson<{ totalLength: number; live: number }>(part(parts, 'postings.totals'));
    postings.#totalLength = totals.totalLength;
    postings.#live = totals.live;
    return postings;
  }

  /** Length in terms of `slot`. */
  lengthOf(slot: number): number {
    return this.#lengths[slot]!;
  }

  /** Take a dead slot out of the statistics (its postings are skipped from now on). */
  remove(slot: number): void {
    for (let i = this.#termStart[slot]!; i < this.#termStart[slot + 1]!; i++) {
      this.#documentFrequency[this.#slotTerms[i]!]!--;
    }
    this.#totalLength -= this.#lengths[slot]!;
    this.#live--;
  }

  #termId(word: string): number {
    let id = this.#termIds.get(word);
    if (id === undefined) {
      id = this.#termIds.size;
      this.#termIds.set(word, id);
      this.#postingSlots.push(new Int32Array(2));
      this.#postingFrequencies.push(new Uint16Array(2));
      this.#postingLengths = ensureCapacity(this.#postingLengths, id + 1, Int32Array);
      this.#documentFrequency = ensureCapacity(this.#documentFrequency, id + 1, Int32Array);
      this.#counts = ensureCapacity(this.#counts, id + 1, Int32Array);
    }
    return id;
  }

  /**
   * Score every live slot holding at least one of `terms` (analysed, distinct) and hand
   * them to `receive`; the arrays are scratch space, valid only during the call.
   */
  score(
    terms: readonly string[],
    alive: Uint8Array,
    slotCount: number,
    receive: ScoredSlots,
    corpus?: ScoringCorpus,
  ): void {
    const live = corpus ? corpus.live : this.#live;
    if (live === 0) {
      receive(this.#touched, this.#scores, 0);
      return;
    }
    this.#scores = ensureCapacity(this.#scores, slotCount, Float64Array);
    this.#touched = ensureCapacity(this.#touched, slotCount, Int32Array);
    const scores = this.#scores;
    const touched = this.#touched;
    const lengths = this.#lengths;
    const averageLength = (corpus ? corpus.totalLength : this.#totalLength) / live;
    const inCorpus = corpus?.test;
    let count = 0;
    for (const word of terms) {
      const term = this.#termIds.get(word);
      if (term === undefined || this.#documentFrequency[term] === 0) continue;
      const slots = this.#postingSlots[term]!;
      const frequencies = this.#postingFrequencies[term]!;
      const n = this.#postingLengths[term]!;
      let documentFrequency = this.#documentFrequency[term]!;
      if (inCorpus) {
        documentFrequency = 0;
        for (let i = 0; i < n; i++) if (alive[slots[i]!] === 1 && inCorpus(slots[i]!)) documentFrequency++;
        if (documentFrequency === 0) continue;
      }
      const idf = bm25Idf(live, documentFrequency);
      for (let i = 0; i < n; i++) {
        const slot = slots[i]!;
        if (alive[slot] === 0 || (inCorpus && !inCorpus(slot))) continue;
        const frequency = frequencies[i]!;
        const norm = 1 - BM25_B + (BM25_B * lengths[slot]!) / averageLength;
        if (scores[slot] === 0) touched[count++] = slot;
        scores[slot]! += (idf * frequency * (BM25_K1 + 1)) / (frequency + BM25_K1 * norm);
      }
    }
    try {
      receive(touched, scores, count);
    } finally {
      for (let i = 0; i < count; i++) scores[touched[i]!] = 0;
    }
  }
}
