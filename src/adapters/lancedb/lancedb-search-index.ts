import type { MemoryFilter, SearchHit } from '../../core/spec/store.js';
import type { IndexedRow } from '../../core/store-kit/search-index/indexed-row.js';
import { compileSlotFilter, type SlotFilter } from '../../core/store-kit/search-index/slot-filter.js';
import { SlotIndex } from '../../core/store-kit/search-index/slot-index.js';
import type { VectorKernel } from '../../core/store-kit/search-index/vector-kernel.js';
import { decodeNullableText, decodeStoredText } from '../../core/text/stored-text.js';
import type { LanceTable } from './lancedb-driver.js';
import { memoryWhere } from './lancedb-filter.js';
import type { MemoryRow } from './lancedb-rows.js';

/** Past this share of dead slots (replaced or deleted memories) the index is rebuilt. */
const REBUILD_DEAD_SHARE = 0.25;

/** The memories-table columns the index reads. */
export const INDEXED_LANCE_COLUMNS = [
  'id',
  'agent_id',
  'user_id',
  'namespace',
  'kind',
  'category',
  'source_session',
  'bookmarked',
  'occurred_at',
  'valid_from',
  'valid_to',
  'lexical_terms',
  'vector',
];

/** What the index holds and what building it cost, for the bench. */
export interface LanceSearchIndexStats {
  /** Live memories indexed. */
  memories: number;
  /** Full loads since the store opened. */
  loads: number;
  /** Milliseconds the last full load took. */
  lastLoadMs: number;
  /** The vector kernel in use. */
  kernel: VectorKernel['name'];
}

type IndexedFields = Pick<
  MemoryRow,
  | 'id'
  | 'agent_id'
  | 'user_id'
  | 'namespace'
  | 'kind'
  | 'category'
  | 'source_session'
  | 'bookmarked'
  | 'occurred_at'
  | 'valid_from'
  | 'valid_to'
  | 'lexical_terms'
>;

/**
 * memoir's in-process search index (BM25 postings, int8 vectors with float32 rescoring; see
 * memoir/store-kit's SlotIndex) over a LanceDB memories table. It reflects one table version:
 * the store's own writes are applied as they commit when the commit is the very next version,
 * and any other version (another process's write, a bulk change, a maintenance round, an undo)
 * makes the next search reload it from the rows, so it never answers from a state the table
 * was not in.
 */
export class LanceSearchIndex {
  readonly #kernel: VectorKernel;
  readonly dimensions: number;
  #index: SlotIndex;
  /** Each memory's key in the slot table, by id (assigned by the index: LanceDB rows have no stable number). */
  #keys = new Map<string, number>();
  #nextKey = 1;
  /** The table version the index reflects; null before the first load. */
  #version: number | null = null;
  #loading: Promise<void> | undefined;
  #loads = 0;
  #lastLoadMs = 0;

  constructor(kernel: VectorKernel, dimensions: number) {
    this.#kernel = kernel;
    this.dimensions = dimensions;
    this.#index = new SlotIndex(dimensions, { keepFloats: true });
  }

  /** What the index holds now. */
  stats(): LanceSearchIndexStats {
    return {
      memories: this.#index.table.live,
      loads: this.#loads,
      lastLoadMs: this.#lastLoadMs,
      kernel: this.#kernel.name,
    };
  }

  /** Bring the index to the table's current version: nothing, or a full load from the rows. */
  async sync(table: LanceTable): Promise<void> {
    while (this.#loading) await this.#loading;
    const current = await table.version();
    if (this.#version === current && !this.#tooSparse()) return;
    if (this.#loading) return this.sync(table);
    this.#loading = this.#load(table, current).finally(() => {
      this.#loading = undefined;
    });
    await this.#loading;
  }

  #tooSparse(): boolean {
    const table = this.#index.table;
    return table.count > 1000 && table.deadShare > REBUILD_DEAD_SHARE;
  }

  // Read at (or after) `version`: a write that lands during the scan shows as a version the
  // index does not know, so the next search loads again.
  async #load(table: LanceTable, version: number): Promise<void> {
    const started = performance.now();
    const index = new SlotIndex(this.dimensions, { keepFloats: true });
    const keys = new Map<string, number>();
    const rows = await table.countRows();
    index.reserve(rows);
    for await (const batch of table.query().select(INDEXED_LANCE_COLUMNS)) {
      const column = (name: string) => batch.getChild(name)!;
      const ids = column('id');
      const agent = column('agent_id');
      const user = column('user_id');
      const namespace = column('namespace');
      const kind = column('kind');
      const category = column('category');
      const session = column('source_session');
      const bookmarked = column('bookmarked');
      const occurred = column('occurred_at');
      const validFrom = column('valid_from');
      const validTo = column('valid_to');
      const terms = column('lexical_terms');
      const vectors = batch.getChild('vector');
      // The vector column is a fixed-size list: one flat float array under it.
      const flat = vectors?.data.length === 1 ? (vectors.data[0]!.children[0]!.values as Float32Array) : undefined;
      const d = this.dimensions;
      for (let i = 0; i < batch.numRows; i++) {
        let embedding: Float32Array | null = null;
        if (vectors?.isValid(i)) {
          embedding = flat
            ? flat.subarray((vectors.data[0]!.offset + i) * d, (vectors.data[0]!.offset + i + 1) * d)
            : Float32Array.from(vectors.get(i) as Iterable<number>);
        }
        const id = ids.get(i) as string;
        index.add(
          this.#row(
            keys,
            id,
            {
              id,
              agent_id: agent.get(i),
              user_id: user.get(i),
              namespace: namespace.get(i),
              kind: kind.get(i),
              category: category.get(i),
              source_session: session.get(i),
              bookmarked: bookmarked.get(i),
              occurred_at: Number(occurred.get(i)),
              valid_from: Number(validFrom.get(i)),
              valid_to: validTo.get(i) === null ? null : Number(validTo.get(i)),
              lexical_terms: terms.get(i),
            },
            embedding,
          ),
        );
      }
    }
    this.#index = index;
    this.#keys = keys;
    this.#version = version;
    this.#loads++;
    this.#lastLoadMs = performance.now() - started;
  }

  #row(keys: Map<string, number>, id: string, row: IndexedFields, embedding: Float32Array | null): IndexedRow {
    let key = keys.get(id);
    if (key === undefined) {
      key = this.#nextKey++;
      keys.set(id, key);
    }
    return {
      rowid: key,
      id,
      agentId: row.agent_id,
      userId: row.user_id,
      namespace: row.namespace,
      kind: row.kind,
      // Decoded, so filters compare the text the caller gave (see lancedb-rows).
      category: decodeStoredText(row.category),
      sessionId: decodeNullableText(row.source_session),
      bookmarked: row.bookmarked,
      occurredAt: row.occurred_at,
      validFrom: row.valid_from,
      validTo: row.valid_to,
      terms: row.lexical_terms,
      embedding,
    };
  }

  /**
   * The store committed `version` itself: rows it wrote (`put`), ids it deleted, or neither (a
   * change the index does not hold, such as access counts). Applied only when the index is
   * loaded, not loading, and `version` directly follows the one it reflects; otherwise the
   * next search loads the table again.
   */
  applyOwnWrite(version: number, change: { put?: readonly MemoryRow[]; deleted?: readonly string[] }): void {
    if (this.#loading || this.#version === null || version !== this.#version + 1) return;
    for (const id of change.deleted ?? []) {
      const key = this.#keys.get(id);
      if (key !== undefined) this.#index.remove(key);
    }
    for (const row of change.put ?? []) {
      const embedding = row.vector ? Float32Array.from(row.vector) : null;
      const indexed = this.#row(this.#keys, row.id, row, embedding);
      this.#index.remove(indexed.rowid);
      this.#index.add(indexed);
    }
    this.#version = version;
  }

  // Entity and fingerprint lists (and a time that does not parse) are not slot columns: the
  // rows that match them are read from the table first, then tested by key.
  async #compile(table: LanceTable, index: SlotIndex, filter: MemoryFilter | undefined): Promise<SlotFilter> {
    const keysNow = this.#keys;
    let inTable: MemoryFilter | undefined;
    const first = compileSlotFilter(filter, index.table, (rest) => {
      inTable = rest;
      return new Set();
    });
    if (!inTable) return first;
    const where = memoryWhere(inTable) ?? 'true';
    const rows = (await table.query().where(where).select(['id']).toArray()) as Array<{ id: string }>;
    const keys = new Set<number>();
    for (const row of rows) {
      const key = keysNow.get(row.id);
      if (key !== undefined) keys.add(key);
    }
    return compileSlotFilter(filter, index.table, () => keys);
  }

  /** BM25 over `terms` (analysed, distinct), filtered, best `limit` first. */
  async searchLexical(
    table: LanceTable,
    terms: readonly string[],
    filter: MemoryFilter | undefined,
    limit: number,
  ): Promise<SearchHit[]> {
    await this.sync(table);
    const index = this.#index;
    const compiled = await this.#compile(table, index, filter);
    return index.lexical(terms, compiled, limit);
  }

  /** Cosine nearest neighbours of `vector`, filtered, best `limit` first, scored exactly in float32. */
  async searchVector(
    table: LanceTable,
    vector: Float32Array,
    filter: MemoryFilter | undefined,
    limit: number,
  ): Promise<SearchHit[]> {
    await this.sync(table);
    const index = this.#index;
    const compiled = await this.#compile(table, index, filter);
    const candidates = index.candidates(this.#kernel, vector, compiled, limit);
    return index.rescore(vector, candidates, limit);
  }
}
