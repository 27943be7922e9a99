import type { MemoryFilter, SearchHit } from '../../core/spec/store.js';
import { ensureCapacity } from '../../core/store-kit/search-index/growable.js';
import type { IndexedRow } from '../../core/store-kit/search-index/indexed-row.js';
import { compileSlotFilter, type SlotFilter } from '../../core/store-kit/search-index/slot-filter.js';
import { SlotIndex } from '../../core/store-kit/search-index/slot-index.js';
import {
  bytesOf,
  fromJson,
  jsonBytes,
  part,
  type SnapshotParts,
  viewOf,
} from '../../core/store-kit/search-index/snapshot-parts.js';
import type { VectorKernel } from '../../core/store-kit/search-index/vector-kernel.js';
import { VectorSlab } from '../../core/store-kit/search-index/vector-slab.js';
import { decodeNullableText, decodeStoredText } from '../../core/text/stored-text.js';
import type { LanceTable } from './lancedb-driver.js';
import { memoryWhere, sqlIn } from './lancedb-filter.js';
import type { AddressedRow } from './lancedb-row-addresses.js';
import { digestBatch, digestOfRow } from './lancedb-row-digest.js';
import type { MemoryRow } from './lancedb-rows.js';

/** Past this share of dead slots (replaced or deleted memories) the index is rebuilt. */
const REBUILD_DEAD_SHARE = 0.25;

/** Version of the snapshot layout beside the store-kit parts: a snapshot of another is ignored. */
const SNAPSHOT_FORMAT = 2;

/** What a snapshot says about itself, beside the store-kit parts. */
interface SnapshotHeader {
  format: number;
  /** The memories table's version the snapshot reflects. */
  version: number;
  /** The embedder recorded in the meta table when it was taken. */
  embedder: string | null;
  dimensions: number;
  scale: number;
  nextKey: number;
}

/** Where the index reads a snapshot from, and which embedder the store holds vectors of now. */
export interface LanceIndexSnapshotSource {
  /** The stored snapshot's parts, or null when there is none that checks out. */
  read(): Promise<SnapshotParts | null>;
  /** The embedder recorded in the meta table. */
  embedder(): Promise<string | null>;
}

/** One search index snapshot, taken from the index as it stood. */
export interface LanceIndexSnapshot {
  parts: SnapshotParts;
  /** Rows changed since the last snapshot that this one covers. */
  covers: number;
}

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
  'updated_at',
  'lexical_terms',
  'vector',
];

/** An Arrow record batch as the index reads it. */
interface ArrowBatch {
  numRows: number;
  getChild(name: string): ArrowColumn | null;
}

interface ArrowColumn {
  get(index: number): unknown;
  isValid(index: number): boolean;
  data: ReadonlyArray<{ offset: number; children: ReadonlyArray<{ values: unknown }> }>;
}

/**
 * Per slot, what the index keeps beside the slot table: the row's address at the version read
 * (NaN for a row the store wrote since), so the rows a search finds are read next by address
 * (see lancedb-row-addresses.ts: a hint only); and `updated_at`, `embedded` and a digest of
 * the indexed columns, which a catch-up compares to find the rows that changed.
 */
class RowSide {
  address = new Float64Array(0);
  updated = new Float64Array(0);
  embedded = new Uint8Array(0);
  digest = new Int32Array(0);

  reserve(slots: number): void {
    this.digest = ensureCapacity(this.digest, slots, Int32Array);
    this.address = ensureCapacity(this.address, slots, Float64Array);
    this.updated = ensureCapacity(this.updated, slots, Float64Array);
    this.embedded = ensureCapacity(this.embedded, slots, Uint8Array);
  }

  /** The first `slots` entries as snapshot parts (views, not copies). */
  toParts(parts: SnapshotParts, slots: number): void {
    parts.set('lance.address', bytesOf(this.address.subarray(0, slots)));
    parts.set('lance.updated', bytesOf(this.updated.subarray(0, slots)));
    parts.set('lance.embedded', bytesOf(this.embedded.subarray(0, slots)));
    parts.set('lance.digest', bytesOf(this.digest.subarray(0, slots)));
  }

  /** A side restored from {@link RowSide.toParts}; throws when a part is missing or short. */
  static fromParts(parts: SnapshotParts, slots: number): RowSide {
    const side = new RowSide();
    side.address = viewOf(part(parts, 'lance.address'), Float64Array);
    side.updated = viewOf(part(parts, 'lance.updated'), Float64Array);
    side.embedded = viewOf(part(parts, 'lance.embedded'), Uint8Array);
    side.digest = viewOf(part(parts, 'lance.digest'), Int32Array);
    const lengths = [side.address, side.updated, side.embedded, side.digest].map((column) => column.length);
    if (lengths.some((length) => length !== slots)) throw new Error('search index snapshot rows disagree');
    return side;
  }

  set(slot: number, address: number, updated: number, embedded: boolean, digest: number): void {
    if (slot >= this.address.length) this.reserve(Math.max(16, slot * 2));
    this.digest[slot] = digest;
    this.address[slot] = address;
    this.updated[slot] = updated;
    this.embedded[slot] = embedded ? 1 : 0;
  }
}

/** Row `i`'s vector in a batch (a view where it can be), or null for a row without one. */
function vectorReader(batch: ArrowBatch, dimensions: number): (i: number) => Float32Array | null {
  const vectors = batch.getChild('vector');
  // The vector column is a fixed-size list: one flat float array under it.
  const data = vectors?.data.length === 1 ? vectors.data[0] : undefined;
  const flat = data?.children[0]?.values as Float32Array | undefined;
  return (i) => {
    if (!vectors?.isValid(i)) return null;
    return flat && data
      ? flat.subarray((data.offset + i) * dimensions, (data.offset + i + 1) * dimensions)
      : Float32Array.from(vectors.get(i) as Iterable<number>);
  };
}

/**
 * What memoir's in-process index over a LanceDB table holds and what building it cost.
 *
 * @group Adapters
 */
export interface LanceSearchIndexStats {
  /** Live memories indexed. */
  memories: number;
  /** Full loads from the rows since the store opened. */
  loads: number;
  /** Loads from a snapshot (and the rows changed since) since the store opened. */
  restores: number;
  /** Where the last load came from: the rows, or a snapshot plus the rows changed since. */
  lastLoadFrom: 'rows' | 'snapshot' | null;
  /** Snapshots this store has written beside the table. */
  snapshotsWritten: number;
  /** Catch-ups (a narrow scan and the changed rows) since the store opened. */
  catchUps: number;
  /** Milliseconds the last load (from rows or a snapshot) took. */
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
  #side = new RowSide();
  #nextKey = 1;
  /** The table version the index reflects; null before the first load. */
  #version: number | null = null;
  #loading: Promise<void> | undefined;
  #loads = 0;
  #restores = 0;
  #catchUps = 0;
  #lastLoadMs = 0;
  #lastLoadFrom: 'rows' | 'snapshot' | null = null;
  readonly #snapshot: LanceIndexSnapshotSource | undefined;
  #snapshotsWritten = 0;
  /** Rows changed since the stored snapshot (as far as this process knows). */
  #changedSinceSnapshot = 0;
  /** True when no stored snapshot this process knows of reflects the index: it was built from rows. */
  #snapshotMissing = false;
  #floatsPending = false;

  constructor(kernel: VectorKernel, dimensions: number, snapshot?: LanceIndexSnapshotSource) {
    this.#kernel = kernel;
    this.dimensions = dimensions;
    this.#index = new SlotIndex(dimensions, { keepFloats: true });
    this.#snapshot = snapshot;
  }

  /** What the index holds now. */
  stats(): LanceSearchIndexStats {
    return {
      memories: this.#index.table.live,
      loads: this.#loads,
      restores: this.#restores,
      lastLoadFrom: this.#lastLoadFrom,
      snapshotsWritten: this.#snapshotsWritten,
      catchUps: this.#catchUps,
      lastLoadMs: this.#lastLoadMs,
      kernel: this.#kernel.name,
    };
  }

  /**
   * Whether writing a snapshot would pay off: the index holds at least `minMemories` and was
   * built from rows, or enough rows changed since the stored one that the next process would
   * spend long catching up — a tenth of the memories (at least 10,000), or after a maintenance
   * round, which leaves the table as it stays, a hundredth (at least 1,000).
   */
  snapshotDue(minMemories: number, afterMaintenance: boolean): boolean {
    const live = this.#index.table.live;
    if (this.#version === null || this.#loading || live < minMemories) return false;
    if (this.#snapshotMissing) return true;
    const enough = afterMaintenance ? Math.max(1000, live / 100) : Math.max(10_000, live / 10);
    return this.#changedSinceSnapshot >= enough;
  }

  /**
   * The index as snapshot parts, taken at once (the caller copies them before anything else
   * runs: they are views of the live index); null while it loads or before the first load.
   */
  snapshotParts(embedder: string | null): LanceIndexSnapshot | null {
    if (this.#version === null || this.#loading) return null;
    const parts: SnapshotParts = new Map();
    const header: SnapshotHeader = {
      format: SNAPSHOT_FORMAT,
      version: this.#version,
      embedder,
      dimensions: this.dimensions,
      scale: this.#index.slab.scale,
      nextKey: this.#nextKey,
    };
    parts.set('lance.header', jsonBytes(header));
    this.#index.toParts(parts);
    this.#side.toParts(parts, this.#index.table.count);
    return { parts, covers: this.#changedSinceSnapshot };
  }

  /** A snapshot from {@link snapshotParts} is stored: the rows it covers need none again. */
  snapshotWritten(snapshot: LanceIndexSnapshot): void {
    this.#snapshotsWritten++;
    this.#snapshotMissing = false;
    this.#changedSinceSnapshot = Math.max(0, this.#changedSinceSnapshot - snapshot.covers);
  }

  /**
   * Bring the index to the table's current version: nothing when it is there; a full load the
   * first time (or when too many slots are dead); otherwise a catch-up that compares each
   * row's indexed columns (all but the vector, as a digest) and its `updated_at` and `embedded`
   * with what the index holds and reads whole only the rows that differ, so a compaction or
   * another process's retain costs a scan without vectors, not a rebuild. A vector replaced
   * with none of those changing (the same memory re-embedded by another process without a new
   * `updated_at`) is not seen until the next full load.
   */
  async sync(table: LanceTable): Promise<void> {
    while (this.#loading) await this.#loading;
    const current = await table.version();
    if (this.#version === current && !this.#tooSparse()) return;
    if (this.#loading) return this.sync(table);
    const step =
      this.#version === null
        ? this.#open(table, current)
        : this.#tooSparse()
          ? this.#load(table, current)
          : this.#catchUp(table, current);
    this.#loading = step.finally(() => {
      this.#loading = undefined;
    });
    await this.#loading;
  }

  // The first load of the process: from the snapshot beside the table when there is one that
  // fits, from the rows otherwise. Whatever goes wrong with a snapshot costs only the head start.
  async #open(table: LanceTable, version: number): Promise<void> {
    const started = performance.now();
    let restored = false;
    try {
      restored = await this.#restore(table, version);
    } catch {
      restored = false;
    }
    if (!restored) {
      this.#version = null;
      return this.#load(table, version);
    }
    this.#restores++;
    this.#lastLoadFrom = 'snapshot';
    this.#lastLoadMs = performance.now() - started;
  }

  async #restore(table: LanceTable, current: number): Promise<boolean> {
    if (!this.#snapshot) return false;
    const parts = await this.#snapshot.read();
    if (!parts) return false;
    const header = fromJson<SnapshotHeader>(part(parts, 'lance.header'));
    if (
      header.format !== SNAPSHOT_FORMAT ||
      header.dimensions !== this.dimensions ||
      header.scale !== new VectorSlab(this.dimensions).scale ||
      !Number.isInteger(header.version) ||
      !Number.isInteger(header.nextKey) ||
      header.embedder !== (await this.#snapshot.embedder())
    ) {
      return false;
    }
    const index = SlotIndex.fromParts(parts, this.dimensions, { keepFloats: true });
    const slots = index.table;
    const side = RowSide.fromParts(parts, slots.count);
    const keys = new Map<string, number>();
    for (let slot = 0; slot < slots.count; slot++) {
      if (slots.alive[slot] === 1) keys.set(slots.ids[slot]!, slots.rowids[slot]!);
    }
    this.#index = index;
    this.#side = side;
    this.#keys = keys;
    this.#nextKey = header.nextKey;
    this.#version = header.version;
    // The same version, and as many rows as the index holds live: nothing to catch up on. A
    // table made again from nothing could reach the same version number; the count and the
    // embedder check above are what a snapshot is trusted on, and the catch-up otherwise.
    const unchanged = header.version === current && (await table.countRows()) === slots.live;
    if (!unchanged) await this.#catchUp(table, current);
    this.#version = current;
    // The float32 vectors for rescoring are the table's own, not in the snapshot: a search
    // reads those of its candidates, and `fillFloats` the rest, in the background.
    this.#floatsPending = true;
    return true;
  }

  /** True after a load from a snapshot, until {@link fillFloats} has read every vector. */
  get floatsPending(): boolean {
    return this.#floatsPending;
  }

  /**
   * Read every row's vector into a restored index's float32 copy, by id, for the slots that
   * have none yet (a slot written since holds its own), so searches stop reading their
   * candidates' vectors from the table. Stops between batches once `stop` says so.
   */
  async fillFloats(table: LanceTable, stop: () => boolean): Promise<void> {
    if (!this.#floatsPending) return;
    this.#floatsPending = false;
    try {
      for await (const batch of table.query().select(['id', 'vector'])) {
        // Left for later (a closing store): what is read so far stays.
        if (stop()) {
          this.#floatsPending = true;
          return;
        }
        this.#setFloatsFrom(batch);
      }
    } catch (error) {
      this.#floatsPending = true;
      throw error;
    }
  }

  // Vectors read now for the rows the index holds without their float32 copy.
  #setFloatsFrom(batch: ArrowBatch): void {
    const index = this.#index;
    const slots = index.table;
    const ids = batch.getChild('id')!;
    const vectorOf = vectorReader(batch, this.dimensions);
    for (let i = 0; i < batch.numRows; i++) {
      const key = this.#keys.get(ids.get(i) as string);
      const slot = key === undefined ? undefined : slots.slotOfRowid.get(key);
      if (slot === undefined || index.floatsMissing([slot]).length === 0) continue;
      const vector = vectorOf(i);
      if (vector) index.setFloats(slot, vector);
    }
  }

  /** Read the float32 vectors of those of `candidates` that lack one, by address, then by id. */
  async #ensureFloats(table: LanceTable, candidates: readonly number[]): Promise<void> {
    let missing = this.#index.floatsMissing(candidates);
    if (missing.length === 0) return;
    const addresses = missing.map((slot) => this.#side.address[slot]!).filter((address) => !Number.isNaN(address));
    if (addresses.length > 0) {
      const taken = table.takeRowIds(addresses.map((address) => BigInt(address))).select(['id', 'vector']);
      for await (const batch of taken) this.#setFloatsFrom(batch);
      missing = this.#index.floatsMissing(missing);
    }
    if (missing.length === 0) return;
    const ids = missing.map((slot) => this.#index.table.ids[slot]!);
    for (let at = 0; at < ids.length; at += 1000) {
      const query = table
        .query()
        .where(sqlIn('id', ids.slice(at, at + 1000)))
        .select(['id', 'vector']);
      for await (const batch of query) this.#setFloatsFrom(batch);
    }
  }

  #tooSparse(): boolean {
    const table = this.#index.table;
    return table.count > 1000 && table.deadShare > REBUILD_DEAD_SHARE;
  }

  // Read at (or after) `version`: a write that lands during the scan shows as a version the
  // index does not know, so the next search catches up again.
  async #load(table: LanceTable, version: number): Promise<void> {
    const started = performance.now();
    const index = new SlotIndex(this.dimensions, { keepFloats: true });
    const keys = new Map<string, number>();
    const side = new RowSide();
    const rows = await table.countRows();
    index.reserve(rows);
    side.reserve(rows);
    await this.#read(table.query().select(INDEXED_LANCE_COLUMNS).withRowId(), index, keys, side);
    this.#index = index;
    this.#keys = keys;
    this.#side = side;
    this.#version = version;
    this.#loads++;
    this.#lastLoadFrom = 'rows';
    this.#snapshotMissing = true;
    this.#changedSinceSnapshot = 0;
    this.#lastLoadMs = performance.now() - started;
  }

  async #catchUp(table: LanceTable, version: number): Promise<void> {
    const index = this.#index;
    const slots = index.table;
    const side = this.#side;
    const seen = new Uint8Array(slots.count);
    const changed: string[] = [];
    const changedAt: bigint[] = [];
    const narrow = INDEXED_LANCE_COLUMNS.filter((name) => name !== 'vector').concat('embedded');
    for await (const batch of table.query().select(narrow).withRowId()) {
      const rows = batch.numRows;
      const ids = batch.getChild('id')!;
      const updated = batch.getChild('updated_at')!;
      const embedded = batch.getChild('embedded')!;
      const addresses = batch.getChild('_rowid')!;
      const digests = digestBatch(batch);
      for (let i = 0; i < rows; i++) {
        const id = ids.get(i) as string;
        const key = this.#keys.get(id);
        const slot = key === undefined ? undefined : slots.slotOfRowid.get(key);
        const unchanged =
          slot !== undefined &&
          side.updated[slot] === Number(updated.get(i)) &&
          side.embedded[slot] === (embedded.get(i) ? 1 : 0) &&
          side.digest[slot] === digests[i];
        if (!unchanged) {
          changed.push(id);
          changedAt.push(addresses.get(i) as bigint);
          continue;
        }
        seen[slot] = 1;
        side.address[slot] = Number(addresses.get(i));
      }
    }
    const changedIds = new Set(changed);
    let removed = 0;
    for (let slot = 0; slot < seen.length; slot++) {
      if (seen[slot] === 0 && slots.alive[slot] === 1 && !changedIds.has(slots.ids[slot]!)) {
        index.remove(slots.rowids[slot]!);
        removed++;
      }
    }
    this.#changedSinceSnapshot += changed.length + removed;
    for (const id of changed) {
      const key = this.#keys.get(id);
      if (key !== undefined) index.remove(key);
    }
    // The changed rows are taken where the scan found them; any a write moved since (a
    // compaction) are read by id.
    const wanted = new Set(changed);
    try {
      for (let at = 0; at < changedAt.length; at += 1000) {
        const rows = changedAt.slice(at, at + 1000);
        await this.#read(
          table.takeRowIds(rows).select(INDEXED_LANCE_COLUMNS).withRowId(),
          index,
          this.#keys,
          side,
          wanted,
        );
      }
    } catch {
      // Addresses a cleanup has removed since: what was not taken is read by id below.
    }
    const missing = [...wanted];
    for (let at = 0; at < missing.length; at += 1000) {
      const ids = missing.slice(at, at + 1000);
      const query = table.query().where(sqlIn('id', ids)).select(INDEXED_LANCE_COLUMNS).withRowId();
      await this.#read(query, index, this.#keys, side, wanted);
    }
    this.#version = version;
    this.#catchUps++;
  }

  /**
   * Add every row `query` yields (the indexed columns, with row addresses) to `index`; with
   * `wanted`, only the rows whose ids it holds, each taken out of it as it is added.
   */
  async #read(
    query: AsyncIterable<ArrowBatch>,
    index: SlotIndex,
    keys: Map<string, number>,
    side: RowSide,
    wanted?: Set<string>,
  ) {
    const d = this.dimensions;
    for await (const batch of query) {
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
      const updated = column('updated_at');
      const terms = column('lexical_terms');
      const addresses = column('_rowid');
      const vectorOf = vectorReader(batch, d);
      const digests = digestBatch(batch);
      for (let i = 0; i < batch.numRows; i++) {
        const id = ids.get(i) as string;
        if (wanted && !wanted.delete(id)) continue;
        const embedding = vectorOf(i);
        const fields: IndexedFields = {
          id,
          agent_id: agent.get(i) as string | null,
          user_id: user.get(i) as string | null,
          namespace: namespace.get(i) as string | null,
          kind: kind.get(i) as string,
          category: category.get(i) as string,
          source_session: session.get(i) as string | null,
          bookmarked: bookmarked.get(i) as boolean,
          occurred_at: Number(occurred.get(i)),
          valid_from: Number(validFrom.get(i)),
          valid_to: validTo.get(i) === null ? null : Number(validTo.get(i)),
          lexical_terms: terms.get(i) as string,
        };
        const slot = index.add(this.#row(keys, id, fields, embedding));
        side.set(slot, Number(addresses.get(i)), Number(updated.get(i)), embedding !== null, digests[i]!);
      }
    }
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
   * loaded, not catching up, and `version` directly follows the one it reflects; otherwise the
   * next search catches up from the table.
   */
  applyOwnWrite(version: number, change: { put?: readonly MemoryRow[]; deleted?: readonly string[] }): void {
    if (this.#loading || this.#version === null || version !== this.#version + 1) return;
    this.#changedSinceSnapshot += (change.put?.length ?? 0) + (change.deleted?.length ?? 0);
    for (const id of change.deleted ?? []) {
      const key = this.#keys.get(id);
      if (key !== undefined) this.#index.remove(key);
    }
    for (const row of change.put ?? []) {
      const embedding = row.vector ? Float32Array.from(row.vector) : null;
      const indexed = this.#row(this.#keys, row.id, row, embedding);
      this.#index.remove(indexed.rowid);
      const slot = this.#index.add(indexed);
      // Where LanceDB put the row is not known until a load or catch-up reads it.
      this.#side.set(slot, Number.NaN, row.updated_at, embedding !== null, digestOfRow(row));
    }
    this.#version = version;
  }

  /** Where the rows of `hits` sat at the version loaded, for those the index knows. */
  addressesOf(hits: readonly SearchHit[]): AddressedRow[] {
    const rows: AddressedRow[] = [];
    const table = this.#index.table;
    for (const hit of hits) {
      const key = this.#keys.get(hit.id);
      const slot = key === undefined ? undefined : table.slotOfRowid.get(key);
      const address = slot === undefined ? Number.NaN : (this.#side.address[slot] ?? Number.NaN);
      // As LanceDB gives addresses (u64 as bigint), so a take's rows are recognised as these.
      if (!Number.isNaN(address)) rows.push({ id: hit.id, _rowid: BigInt(address) });
    }
    return rows;
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
    await this.#ensureFloats(table, candidates);
    // A load or catch-up that ran meanwhile replaced the index: its slots are not these.
    if (this.#index !== index) return this.searchVector(table, vector, filter, limit);
    // A catch-up meanwhile may have removed some (deleted by another process).
    return index.rescore(
      vector,
      candidates.filter((slot) => index.table.alive[slot] === 1),
      limit,
    );
  }
}
