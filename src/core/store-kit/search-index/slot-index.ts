import { cosineSimilarity } from '../../search/vector-math.js';
import type { SearchHit } from '../../spec/store.js';
import { topHits } from '../../utils/top-hits.js';
import { ensureCapacity } from './growable.js';
import type { IndexedRow } from './indexed-row.js';
import { LexicalPostings, type ScoringCorpus } from './lexical-postings.js';
import type { SlotFilter } from './slot-filter.js';
import { SlotTable } from './slot-table.js';
import type { SnapshotParts } from './snapshot-parts.js';
import { topSlots } from './top-slots.js';
import type { VectorKernel } from './vector-kernel.js';
import { VectorSlab } from './vector-slab.js';

/** Rows the int8 scan hands to float32 rescoring, at least; four times the limit when more. */
export const RESCORE_AT_LEAST = 200;

/** Below this many slots a vector search just scans. */
const SAMPLE_FROM = 20_000;
/** A filter passing less than this share of a sample is searched by gathering its slots. */
const GATHER_BELOW_SHARE = 0.2;

/** The share of 1,024 evenly spaced slots `usable` accepts. */
function sampledShare(count: number, usable: (slot: number) => boolean): number {
  const step = count / 1024;
  let passed = 0;
  for (let i = 0; i < 1024; i++) if (usable(Math.floor(i * step))) passed++;
  return passed / 1024;
}

/**
 * The in-process search structures of one store, with nothing of where the rows come from:
 * the slot table (filter columns), BM25 postings and the int8 vector slab, and optionally
 * each slot's float32 vector for exact rescoring in memory (a store that can read vectors
 * back cheaply by key, as SQLite can, leaves it off and rescores from its rows).
 */
export class SlotIndex {
  readonly dimensions: number;
  table = new SlotTable();
  postings = new LexicalPostings();
  slab: VectorSlab;
  readonly #keepFloats: boolean;
  #floats = new Float32Array(0);
  /** Per slot, 1 once its float32 vector is held (always, but for a restored index's slots). */
  #floatsHeld = new Uint8Array(0);

  constructor(dimensions: number, options: { keepFloats?: boolean } = {}) {
    this.dimensions = dimensions;
    this.slab = new VectorSlab(dimensions);
    this.#keepFloats = options.keepFloats ?? false;
  }

  /** Make room for `rows` slots at once. */
  reserve(rows: number): void {
    this.table.reserve(rows);
    this.postings.reserve(rows, 24);
    this.slab.reserve(rows);
    if (this.#keepFloats) {
      this.#floats = ensureCapacity(this.#floats, rows * this.dimensions, Float32Array);
      this.#floatsHeld = ensureCapacity(this.#floatsHeld, rows, Uint8Array);
    }
  }

  /**
   * The index as snapshot parts (views, not copies): the slot table, the postings and the int8
   * slab, in the layout the SQLite store writes. The kept float32 vectors are left out: they are
   * the store's own rows, four times the slab's size, and read back from there.
   */
  toParts(parts: SnapshotParts): void {
    this.table.toParts(parts);
    this.postings.toParts(parts, this.table.count);
    this.slab.toParts(parts, this.table.count);
  }

  /**
   * An index restored from {@link SlotIndex.toParts}; throws when a part is missing or the
   * parts disagree. With `keepFloats`, every slot's float32 vector is zero until
   * {@link SlotIndex.setFloats} gives it.
   */
  static fromParts(parts: SnapshotParts, dimensions: number, options: { keepFloats?: boolean } = {}): SlotIndex {
    const index = new SlotIndex(dimensions, options);
    index.table = SlotTable.fromParts(parts);
    index.postings = LexicalPostings.fromParts(parts);
    index.slab = VectorSlab.fromParts(parts, dimensions, index.table.count);
    if (index.#keepFloats) {
      index.#floats = new Float32Array(index.table.count * dimensions);
      index.#floatsHeld = new Uint8Array(index.table.count);
    }
    return index;
  }

  /** Set the kept float32 vector of `slot` (a restored index reads them back from the rows). */
  setFloats(slot: number, embedding: Float32Array): void {
    const d = this.dimensions;
    if (!this.#keepFloats || embedding.length !== d) return;
    this.#growFloats(slot);
    this.#floats.set(embedding, slot * d);
    this.#floatsHeld[slot] = 1;
  }

  /** Those of `slots` (live, with a vector) whose float32 vector is not held yet. */
  floatsMissing(slots: readonly number[]): number[] {
    if (!this.#keepFloats) return [];
    return slots.filter(
      (slot) => this.#floatsHeld[slot] !== 1 && this.table.alive[slot] === 1 && this.slab.hasVector[slot] === 1,
    );
  }

  #growFloats(slot: number): void {
    const d = this.dimensions;
    if ((slot + 1) * d > this.#floats.length) {
      this.#floats = ensureCapacity(this.#floats, Math.max(16, slot * 2) * d, Float32Array);
    }
    if (slot >= this.#floatsHeld.length) {
      this.#floatsHeld = ensureCapacity(this.#floatsHeld, Math.max(16, slot * 2), Uint8Array);
    }
  }

  /** Index `row` in a new slot (its rowid must not be live); returns the slot. */
  add(row: IndexedRow): number {
    const slot = this.table.add(row);
    this.postings.add(slot, row.terms);
    this.slab.set(slot, row.embedding);
    if (this.#keepFloats) {
      const d = this.dimensions;
      this.#growFloats(slot);
      if (row.embedding) this.#floats.set(row.embedding, slot * d);
      else this.#floats.fill(0, slot * d, (slot + 1) * d);
      this.#floatsHeld[slot] = 1;
    }
    return slot;
  }

  /** Drop the live slot of `rowid`; returns it, or -1 when there was none. */
  remove(rowid: number): number {
    const slot = this.table.remove(rowid);
    if (slot < 0) return slot;
    this.postings.remove(slot);
    this.slab.clear(slot);
    return slot;
  }

  /** BM25 over `terms`, under a compiled filter, best `limit` first. */
  lexical(terms: readonly string[], compiled: SlotFilter, limit: number, corpus?: ScoringCorpus): SearchHit[] {
    if (compiled.kind === 'none' || terms.length === 0) return [];
    const table = this.table;
    let hits: SearchHit[] = [];
    this.postings.score(
      terms,
      table.alive,
      table.count,
      (slots, scores, count) => {
        const best = topSlots(
          slots,
          count,
          (slot) => scores[slot]!,
          (slot) => table.ids[slot]!,
          limit,
          compiled.accepts,
        );
        hits = best.map((slot) => ({ id: table.ids[slot]!, score: scores[slot]! }));
      },
      corpus,
    );
    return hits;
  }

  /**
   * Slots worth rescoring for `vector` under a compiled filter: the int8 scan's best, widened
   * when the filter rejects most of them, or every usable slot for a zero query.
   */
  candidates(kernel: VectorKernel, vector: Float32Array, compiled: SlotFilter, limit: number): number[] {
    if (compiled.kind === 'none') return [];
    const accepts = compiled.accepts;
    const table = this.table;
    const slab = this.slab;
    const usable = (slot: number) =>
      table.alive[slot] === 1 && slab.hasVector[slot] === 1 && (accepts === undefined || accepts(slot));
    const query = slab.quantise(vector);
    if (query !== null) return this.#nearestUsable(kernel, query, limit, usable);
    // A zero query is equally far from everything: every usable memory scores 0.
    const all: number[] = [];
    for (let slot = 0; slot < table.count; slot++) if (usable(slot)) all.push(slot);
    return all;
  }

  /**
   * Exact cosine of `vector` with the kept float32 vectors of `slots`, best `limit` first (needs
   * `keepFloats`); a slot whose vector is not held is left out.
   */
  rescore(vector: Float32Array, slots: readonly number[], limit: number): SearchHit[] {
    const d = this.dimensions;
    const held = slots.filter((slot) => this.#floatsHeld[slot] === 1);
    const hits = held.map((slot) => ({
      id: this.table.ids[slot]!,
      score: cosineSimilarity(vector, this.#floats.subarray(slot * d, (slot + 1) * d)),
    }));
    return topHits(hits, limit);
  }

  #nearestUsable(kernel: VectorKernel, query: Int8Array, limit: number, usable: (slot: number) => boolean): number[] {
    const table = this.table;
    const slab = this.slab;
    const d = this.dimensions;
    const count = table.count;
    const wanted = Math.max(RESCORE_AT_LEAST, limit * 4);
    let k = Math.min(count, wanted + (count - table.live));
    // A filter that passes few slots (one tenant of many) is found out on a sample first, so
    // the whole matrix is not scanned twice (once to learn the share, once widened).
    let gather = count > SAMPLE_FROM && sampledShare(count, usable) < GATHER_BELOW_SHARE;
    while (!gather) {
      const rows = kernel.nearest(slab.matrix, count, d, query, k);
      const found: number[] = [];
      for (const slot of rows) if (usable(slot)) found.push(slot);
      const needed = Math.min(limit, table.live);
      if (found.length >= needed || k >= count) return found.slice(0, wanted);
      // Widen by the share the filter passed so far, once; a filter that passes few
      // memories goes straight to scanning only those.
      const share = Math.max(found.length, 1) / k;
      const next = Math.ceil((wanted / share) * 1.5);
      if (next < count / 2) k = Math.max(k * 2, next);
      else gather = true;
    }
    const accepted: number[] = [];
    for (let slot = 0; slot < count; slot++) if (usable(slot)) accepted.push(slot);
    if (accepted.length <= wanted) return accepted;
    const gathered = new Int8Array(accepted.length * d);
    for (const [i, slot] of accepted.entries()) gathered.set(slab.matrix.subarray(slot * d, (slot + 1) * d), i * d);
    return [...kernel.nearest(gathered, accepted.length, d, query, wanted)].map((i) => accepted[i]!);
  }
}
