import type { MemoryFilter, SearchHit } from '../../../core/spec/store.js';
import type { IndexedRow } from '../../../core/store-kit/search-index/indexed-row.js';
import { LexicalPostings, type ScoringCorpus } from '../../../core/store-kit/search-index/lexical-postings.js';
import {
  compileSlotFilter,
  type SlotFilter,
  type SlotScope,
} from '../../../core/store-kit/search-index/slot-filter.js';
import { SlotTable } from '../../../core/store-kit/search-index/slot-table.js';
import { fromJson, jsonBytes, part, type SnapshotParts } from '../../../core/store-kit/search-index/snapshot-parts.js';
import { topSlots } from '../../../core/store-kit/search-index/top-slots.js';
import type { VectorKernel } from '../../../core/store-kit/search-index/vector-kernel.js';
import { VectorSlab } from '../../../core/store-kit/search-index/vector-slab.js';
import { topHits } from '../../../core/utils/top-hits.js';
import type { SqliteDatabase } from '../sqlite-driver.js';
import { memoryCondition } from '../sqlite-filter.js';
import { blobToVector } from '../sqlite-rows.js';
import { cachedStatement } from '../statement-cache.js';
import { cosineWithNorms, type ExactVector, ExactVectors, exactVector } from './exact-vectors.js';
import { readSnapshot } from './index-snapshot.js';
import { INDEXED_COLUMNS, indexedRowOf } from './indexed-row.js';

/** Rows the int8 scan hands to float32 rescoring, at least; four times the limit when more. */
const RESCORE_AT_LEAST = 200;
/** Past this share of dead slots (replaced or deleted memories) the index is rebuilt. */
const REBUILD_DEAD_SHARE = 0.25;

/** Version of the snapshot layout: a snapshot of another layout is ignored. */
const SNAPSHOT_FORMAT = 1;

/** What a snapshot says about itself. */
interface SnapshotHeader {
  format: number;
  generation: string | undefined;
  seq: number;
  dimensions: number;
  scale: number;
}

/** What the index holds and what building it cost, for stats and the bench. */
export interface SearchIndexStats {
  /** Live memories indexed. */
  memories: number;
  /** Slots, dead ones included. */
  slots: number;
  /** Full loads since the store opened. */
  loads: number;
  /** Milliseconds the last full load took. */
  lastLoadMs: number;
  /** Where the last full load came from: the rows, or a snapshot plus the rows changed since. */
  lastLoadFrom: 'rows' | 'snapshot' | null;
  /** The vector kernel in use. */
  kernel: VectorKernel['name'];
}

const meta = (db: SqliteDatabase, key: string) =>
  cachedStatement(db, 'SELECT value FROM memoir_meta WHERE key = ?', 'pluck').get(key) as string | undefined;

/**
 * The store's search index, held in process memory and derived from the file: BM25
 * postings over each memory's analysed terms and an int8 matrix of its vector, with the
 * columns filters test. It loads on the first search and then follows the file through
 * the change sequence every write records (`memories.change_seq`, `memory_tombstones`),
 * so writes by this connection, other connections and other processes are all seen, and
 * it can always be thrown away and rebuilt.
 */
export class SearchIndex {
  readonly #kernel: VectorKernel;
  readonly #dimensions: number;
  #table = new SlotTable();
  #postings = new LexicalPostings();
  #slab: VectorSlab;
  readonly #exact: ExactVectors;
  #loaded = false;
  #knownSeq = 0;
  #generation: string | undefined;
  #dataVersion: number | undefined;
  #dirty = false;
  #loads = 0;
  #lastLoadMs = 0;

  #lastLoadFrom: 'rows' | 'snapshot' | null = null;
  readonly #snapshotMinMemories: number;
  readonly #scopedStatistics: boolean;
  #snapshotDue = false;
  /** Bumped by every change to the slots: cached scope statistics older than it are stale. */
  #version = 0;
  readonly #scopeStats = new Map<string, { version: number; live: number; totalLength: number }>();

  constructor(
    kernel: VectorKernel,
    dimensions: number,
    options: { snapshotMinMemories?: number; scopedStatistics?: boolean } = {},
  ) {
    this.#kernel = kernel;
    this.#dimensions = dimensions;
    this.#slab = new VectorSlab(dimensions);
    this.#exact = new ExactVectors(dimensions);
    this.#snapshotMinMemories = options.snapshotMinMemories ?? Number.POSITIVE_INFINITY;
    this.#scopedStatistics = options.scopedStatistics ?? false;
  }

  /** True when the index is large and was built from rows: writing a snapshot would pay off. */
  get snapshotDue(): boolean {
    return this.#snapshotDue;
  }

  /**
   * The index as snapshot parts, for the store to write inside a write transaction; it
   * reflects the change sequence the index has caught up to, which the header records.
   */
  snapshotParts(): SnapshotParts {
    const parts: SnapshotParts = new Map();
    const header: SnapshotHeader = {
      format: SNAPSHOT_FORMAT,
      generation: this.#generation,
      seq: this.#knownSeq,
      dimensions: this.#dimensions,
      scale: this.#slab.scale,
    };
    parts.set('header', jsonBytes(header));
    this.#table.toParts(parts);
    this.#postings.toParts(parts, this.#table.count);
    this.#slab.toParts(parts, this.#table.count);
    this.#snapshotDue = false;
    return parts;
  }

  /** The vector dimensions this index was built for. */
  get dimensions(): number {
    return this.#dimensions;
  }

  /** This connection wrote: catch up before the next search (other connections show in data_version). */
  markChanged(): void {
    this.#dirty = true;
  }

  /** What the index holds now (not loading it). */
  stats(): SearchIndexStats {
    return {
      memories: this.#table.live,
      slots: this.#table.count,
      loads: this.#loads,
      lastLoadMs: this.#lastLoadMs,
      lastLoadFrom: this.#lastLoadFrom,
      kernel: this.#kernel.name,
    };
  }

  /** Bring the index in step with the file: load it, catch up on changes, or do nothing. */
  sync(db: SqliteDatabase): void {
    const version = db.pragma('data_version', { simple: true }) as number;
    if (this.#loaded && !this.#dirty && version === this.#dataVersion) return;
    const step = db.transaction(() => {
      const seq = Number(meta(db, 'change_seq') ?? 0);
      const generation = meta(db, 'index_generation');
      const floor = Number(meta(db, 'tombstone_floor') ?? 0);
      const rebuild =
        !this.#loaded ||
        generation !== this.#generation ||
        this.#knownSeq < floor ||
        (this.#table.count > 1000 && this.#table.deadShare > REBUILD_DEAD_SHARE);
      if (rebuild) this.#load(db, generation, floor);
      else if (seq !== this.#knownSeq) this.#catchUp(db);
      this.#knownSeq = seq;
      this.#generation = generation;
    });
    step();
    this.#dataVersion = version;
    this.#dirty = false;
  }

  #load(db: SqliteDatabase, generation: string | undefined, floor: number): void {
    const started = performance.now();
    this.#version++;
    this.#exact.clear();
    const restored = this.#restore(db, generation, floor);
    if (restored === null) this.#loadRows(db);
    else {
      // The snapshot holds the index as of its sequence; the rows changed since go on top.
      this.#knownSeq = restored.seq;
      const caughtUp = this.#catchUp(db);
      this.#snapshotDue = caughtUp > Math.max(10_000, this.#table.live / 10);
    }
    this.#loaded = true;
    this.#loads++;
    this.#lastLoadFrom = restored === null ? 'rows' : 'snapshot';
    this.#lastLoadMs = performance.now() - started;
  }

  // A snapshot is used only when it was made from this generation, for these dimensions,
  // and no tombstone it would need has been pruned since; anything unreadable is ignored.
  #restore(db: SqliteDatabase, generation: string | undefined, floor: number): SnapshotHeader | null {
    if (!Number.isFinite(this.#snapshotMinMemories)) return null;
    const parts = readSnapshot(db);
    if (!parts) return null;
    try {
      const header = fromJson<SnapshotHeader>(part(parts, 'header'));
      const slab = new VectorSlab(this.#dimensions);
      if (
        header.format !== SNAPSHOT_FORMAT ||
        header.generation !== generation ||
        header.dimensions !== this.#dimensions ||
        header.scale !== slab.scale ||
        header.seq < floor
      ) {
        return null;
      }
      const table = SlotTable.fromParts(parts);
      const postings = LexicalPostings.fromParts(parts);
      this.#slab = VectorSlab.fromParts(parts, this.#dimensions, table.count);
      this.#table = table;
      this.#postings = postings;
      return header;
    } catch {
      return null;
    }
  }

  #loadRows(db: SqliteDatabase): void {
    this.#table = new SlotTable();
    this.#postings = new LexicalPostings();
    this.#slab = new VectorSlab(this.#dimensions);
    const expected = db.prepare('SELECT max(rowid) FROM memories').pluck().get() as number | null;
    if (expected) {
      this.#table.reserve(expected);
      this.#postings.reserve(expected, 24);
      this.#slab.reserve(expected);
    }
    const rows = db
      .prepare(
        `SELECT ${INDEXED_COLUMNS} FROM memories m LEFT JOIN memory_embeddings e ON e.memory_rowid = m.rowid ORDER BY m.rowid`,
      )
      .raw(true)
      .iterate() as IterableIterator<unknown[]>;
    for (const raw of rows) this.#add(indexedRowOf(raw));
    this.#snapshotDue = this.#table.live >= this.#snapshotMinMemories;
  }

  /** Apply the changes after the known sequence; resolves to how many rows and deletions it read. */
  #catchUp(db: SqliteDatabase): number {
    const removed = db
      .prepare('SELECT memory_rowid FROM memory_tombstones WHERE change_seq > ?')
      .pluck()
      .all(this.#knownSeq) as number[];
    for (const rowid of removed) this.#remove(Number(rowid));
    const rows = db
      .prepare(
        `SELECT ${INDEXED_COLUMNS} FROM memories m LEFT JOIN memory_embeddings e ON e.memory_rowid = m.rowid WHERE m.change_seq > ? ORDER BY m.rowid`,
      )
      .raw(true)
      .iterate(this.#knownSeq) as IterableIterator<unknown[]>;
    let changed = removed.length;
    for (const raw of rows) {
      const row = indexedRowOf(raw);
      this.#remove(row.rowid);
      this.#add(row);
      changed++;
    }
    return changed;
  }

  #add(row: IndexedRow): void {
    this.#version++;
    const slot = this.#table.add(row);
    this.#postings.add(slot, row.terms);
    this.#slab.set(slot, row.embedding);
  }

  #remove(rowid: number): void {
    const slot = this.#table.remove(rowid);
    if (slot < 0) return;
    this.#version++;
    this.#postings.remove(slot);
    this.#slab.clear(slot);
    this.#exact.delete(slot);
  }

  #compile(db: SqliteDatabase, filter: MemoryFilter | undefined): SlotFilter {
    return compileSlotFilter(filter, this.#table, (sqlFilter) => {
      const condition = memoryCondition(sqlFilter);
      const rowids = db
        .prepare(`SELECT m.rowid FROM memories m WHERE ${condition.sql}`)
        .pluck()
        .all(...condition.params) as number[];
      return new Set(rowids.map(Number));
    });
  }

  /** BM25 over `terms` (analysed, distinct), filtered, best `limit` first. */
  searchLexical(db: SqliteDatabase, terms: readonly string[], filter: MemoryFilter | undefined, limit: number) {
    this.sync(db);
    const compiled = this.#compile(db, filter);
    if (compiled.kind === 'none' || terms.length === 0) return [];
    const table = this.#table;
    let hits: SearchHit[] = [];
    this.#postings.score(
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
      this.#scopedStatistics && compiled.scope ? this.#corpusOf(compiled.scope) : undefined,
    );
    return hits;
  }

  // A tenant's BM25 statistics come from its own memories, so its scores never depend on
  // what other tenants hold; the counts are cached until the index next changes.
  #corpusOf(scope: SlotScope): ScoringCorpus {
    let stats = this.#scopeStats.get(scope.key);
    if (stats?.version !== this.#version) {
      let live = 0;
      let totalLength = 0;
      const table = this.#table;
      for (let slot = 0; slot < table.count; slot++) {
        if (table.alive[slot] === 1 && scope.test(slot)) {
          live++;
          totalLength += this.#postings.lengthOf(slot);
        }
      }
      if (this.#scopeStats.size > 1000) this.#scopeStats.clear();
      stats = { version: this.#version, live, totalLength };
      this.#scopeStats.set(scope.key, stats);
    }
    return { test: scope.test, live: stats.live, totalLength: stats.totalLength };
  }

  /** Cosine nearest neighbours of `vector`, filtered, best `limit` first, scored exactly in float32. */
  searchVector(db: SqliteDatabase, vector: Float32Array, filter: MemoryFilter | undefined, limit: number) {
    this.sync(db);
    const compiled = this.#compile(db, filter);
    if (compiled.kind === 'none') return [];
    const accepts = compiled.accepts;
    const table = this.#table;
    const slab = this.#slab;
    const usable = (slot: number) =>
      table.alive[slot] === 1 && slab.hasVector[slot] === 1 && (accepts === undefined || accepts(slot));
    const query = slab.quantise(vector);
    const count = table.count;
    let candidates: number[];
    if (query === null) {
      // A zero query is equally far from everything: every usable memory scores 0.
      candidates = [];
      for (let slot = 0; slot < count; slot++) if (usable(slot)) candidates.push(slot);
    } else {
      candidates = this.#nearestUsable(query, limit, usable);
    }
    return this.#rescore(db, vector, candidates, limit);
  }

  #nearestUsable(query: Int8Array, limit: number, usable: (slot: number) => boolean): number[] {
    const table = this.#table;
    const slab = this.#slab;
    const d = this.#dimensions;
    const count = table.count;
    const wanted = Math.max(RESCORE_AT_LEAST, limit * 4);
    let k = Math.min(count, wanted + (count - table.live));
    while (true) {
      const rows = this.#kernel.nearest(slab.matrix, count, d, query, k);
      const found: number[] = [];
      for (const slot of rows) if (usable(slot)) found.push(slot);
      const needed = Math.min(limit, table.live);
      if (found.length >= needed || k >= count) return found.slice(0, wanted);
      // Widen by the share the filter passed so far, once; a filter that passes few
      // memories (one tenant of many) goes straight to scanning only those.
      const share = Math.max(found.length, 1) / k;
      const next = Math.ceil((wanted / share) * 1.5);
      if (next < count / 2) {
        k = Math.max(k * 2, next);
        continue;
      }
      const accepted: number[] = [];
      for (let slot = 0; slot < count; slot++) if (usable(slot)) accepted.push(slot);
      if (accepted.length <= wanted) return accepted;
      const gathered = new Int8Array(accepted.length * d);
      for (const [i, slot] of accepted.entries()) gathered.set(slab.matrix.subarray(slot * d, (slot + 1) * d), i * d);
      return [...this.#kernel.nearest(gathered, accepted.length, d, query, wanted)].map((i) => accepted[i]!);
    }
  }

  // The int8 scan shortlists; exact float32 cosine over the stored vectors decides the order.
  #rescore(db: SqliteDatabase, vector: Float32Array, slots: number[], limit: number): SearchHit[] {
    if (slots.length === 0) return [];
    const table = this.#table;
    const exact = this.#exact;
    // This search's vectors, whatever the cache keeps of them once it is full.
    const vectors = new Map<number, ExactVector>();
    const missing: number[] = [];
    for (const slot of slots) {
      const kept = exact.get(slot);
      if (kept) vectors.set(slot, kept);
      else missing.push(table.rowids[slot]!);
    }
    if (missing.length > 0) {
      const rows = cachedStatement(
        db,
        'SELECT memory_rowid, embedding FROM memory_embeddings WHERE memory_rowid IN (SELECT value FROM json_each(?))',
        'raw',
      ).all(JSON.stringify(missing)) as Array<[number, Uint8Array]>;
      const blobs = new Map(rows.map(([rowid, blob]) => [Number(rowid), blob]));
      for (const slot of slots) {
        if (vectors.has(slot)) continue;
        const blob = blobs.get(table.rowids[slot]!);
        if (!blob) continue;
        const read = exactVector(blobToVector(blob));
        vectors.set(slot, read);
        exact.set(slot, read);
      }
    }
    const query = exactVector(vector).squaredNorm;
    const hits: SearchHit[] = [];
    for (const slot of slots) {
      const stored = vectors.get(slot);
      if (stored) hits.push({ id: table.ids[slot]!, score: cosineWithNorms(vector, query, stored) });
    }
    return topHits(hits, limit);
  }
}
