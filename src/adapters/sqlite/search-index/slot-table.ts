import { ensureCapacity } from './growable.js';
import type { IndexedRow } from './indexed-row.js';
import { InternedStrings } from './interned.js';

/** Milliseconds since the epoch of an ISO timestamp; NaN when it does not parse. */
export const instant = (iso: string) => Date.parse(iso);

/**
 * One slot per indexed memory, in columns: the fields filters test, as numbers. A replaced
 * or deleted memory's slot is marked dead and skipped; {@link SlotTable.live} counts the rest.
 */
export class SlotTable {
  readonly strings = new InternedStrings();
  ids: string[] = [];
  rowids = new Float64Array(0);
  alive = new Uint8Array(0);
  agent = new Int32Array(0);
  user = new Int32Array(0);
  namespace = new Int32Array(0);
  kind = new Int32Array(0);
  category = new Int32Array(0);
  session = new Int32Array(0);
  bookmarked = new Uint8Array(0);
  occurredAt = new Float64Array(0);
  validFrom = new Float64Array(0);
  /** NaN when the memory has no end of validity. */
  validTo = new Float64Array(0);
  readonly slotOfRowid = new Map<number, number>();
  count = 0;
  live = 0;

  /** Make room for `capacity` slots at once (a full load knows how many rows it will read). */
  reserve(capacity: number): void {
    if (capacity <= this.rowids.length) return;
    this.rowids = ensureCapacity(this.rowids, capacity, Float64Array);
    this.alive = ensureCapacity(this.alive, capacity, Uint8Array);
    this.agent = ensureCapacity(this.agent, capacity, Int32Array);
    this.user = ensureCapacity(this.user, capacity, Int32Array);
    this.namespace = ensureCapacity(this.namespace, capacity, Int32Array);
    this.kind = ensureCapacity(this.kind, capacity, Int32Array);
    this.category = ensureCapacity(this.category, capacity, Int32Array);
    this.session = ensureCapacity(this.session, capacity, Int32Array);
    this.bookmarked = ensureCapacity(this.bookmarked, capacity, Uint8Array);
    this.occurredAt = ensureCapacity(this.occurredAt, capacity, Float64Array);
    this.validFrom = ensureCapacity(this.validFrom, capacity, Float64Array);
    this.validTo = ensureCapacity(this.validTo, capacity, Float64Array);
  }

  /** Append a slot for `row` (its rowid must not be live already) and return it. */
  add(row: IndexedRow): number {
    const slot = this.count++;
    if (this.count > this.rowids.length) this.reserve(Math.max(16, this.rowids.length * 2));
    this.ids[slot] = row.id;
    this.rowids[slot] = row.rowid;
    this.alive[slot] = 1;
    this.agent[slot] = this.strings.intern(row.agentId);
    this.user[slot] = this.strings.intern(row.userId);
    this.namespace[slot] = this.strings.intern(row.namespace);
    this.kind[slot] = this.strings.intern(row.kind);
    this.category[slot] = this.strings.intern(row.category);
    this.session[slot] = this.strings.intern(row.sessionId);
    this.bookmarked[slot] = row.bookmarked ? 1 : 0;
    this.occurredAt[slot] = instant(row.occurredAt);
    this.validFrom[slot] = instant(row.validFrom);
    this.validTo[slot] = row.validTo === null ? Number.NaN : instant(row.validTo);
    this.slotOfRowid.set(row.rowid, slot);
    this.live++;
    return slot;
  }

  /** Mark the slot holding `rowid` dead; the slot, or -1 when it held none. */
  remove(rowid: number): number {
    const slot = this.slotOfRowid.get(rowid);
    if (slot === undefined) return -1;
    this.slotOfRowid.delete(rowid);
    this.alive[slot] = 0;
    this.live--;
    return slot;
  }

  /** Dead slots, as a share of all slots: past a point the index is rebuilt. */
  get deadShare(): number {
    return this.count === 0 ? 0 : (this.count - this.live) / this.count;
  }
}
