import { ensureCapacity } from './growable.js';
import type { IndexedRow } from './indexed-row.js';
import { InternedStrings } from './interned.js';
import { bytesOf, fromJson, jsonBytes, part, type SnapshotParts, viewOf } from './snapshot-parts.js';

/** Milliseconds since the epoch of an ISO timestamp; NaN when it does not parse. */
export const instant = (iso: string) => Date.parse(iso);

/** Epoch milliseconds of a time a store gives as an ISO timestamp or already as milliseconds. */
const millis = (at: string | number) => (typeof at === 'number' ? at : instant(at));

/**
 * One slot per indexed memory, in columns: the fields filters test, as numbers. A replaced
 * or deleted memory's slot is marked dead and skipped; {@link SlotTable.live} counts the rest.
 */
export class SlotTable {
  strings = new InternedStrings();
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
    this.occurredAt[slot] = millis(row.occurredAt);
    this.validFrom[slot] = millis(row.validFrom);
    this.validTo[slot] = row.validTo === null ? Number.NaN : millis(row.validTo);
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

  /** The table as snapshot parts (views, not copies). */
  toParts(parts: SnapshotParts): void {
    const n = this.count;
    parts.set('slots.ids', jsonBytes(this.ids.slice(0, n)));
    parts.set('slots.strings', jsonBytes(this.strings.values()));
    parts.set('slots.rowids', bytesOf(this.rowids.subarray(0, n)));
    parts.set('slots.alive', bytesOf(this.alive.subarray(0, n)));
    for (const [name, column] of this.#intColumns()) parts.set(`slots.${name}`, bytesOf(column.subarray(0, n)));
    parts.set('slots.bookmarked', bytesOf(this.bookmarked.subarray(0, n)));
    parts.set('slots.occurredAt', bytesOf(this.occurredAt.subarray(0, n)));
    parts.set('slots.validFrom', bytesOf(this.validFrom.subarray(0, n)));
    parts.set('slots.validTo', bytesOf(this.validTo.subarray(0, n)));
  }

  /** A table restored from {@link SlotTable.toParts}. */
  static fromParts(parts: SnapshotParts): SlotTable {
    const table = new SlotTable();
    table.ids = fromJson<string[]>(part(parts, 'slots.ids'));
    table.strings = InternedStrings.from(fromJson<string[]>(part(parts, 'slots.strings')));
    table.rowids = viewOf(part(parts, 'slots.rowids'), Float64Array);
    table.alive = viewOf(part(parts, 'slots.alive'), Uint8Array);
    table.agent = viewOf(part(parts, 'slots.agent'), Int32Array);
    table.user = viewOf(part(parts, 'slots.user'), Int32Array);
    table.namespace = viewOf(part(parts, 'slots.namespace'), Int32Array);
    table.kind = viewOf(part(parts, 'slots.kind'), Int32Array);
    table.category = viewOf(part(parts, 'slots.category'), Int32Array);
    table.session = viewOf(part(parts, 'slots.session'), Int32Array);
    table.bookmarked = viewOf(part(parts, 'slots.bookmarked'), Uint8Array);
    table.occurredAt = viewOf(part(parts, 'slots.occurredAt'), Float64Array);
    table.validFrom = viewOf(part(parts, 'slots.validFrom'), Float64Array);
    table.validTo = viewOf(part(parts, 'slots.validTo'), Float64Array);
    table.count = table.ids.length;
    const lengths = [table.rowids, table.alive, table.agent, table.validTo].map((column) => column.length);
    if (lengths.some((length) => length !== table.count)) throw new Error('search index snapshot columns disagree');
    for (let slot = 0; slot < table.count; slot++) {
      if (table.alive[slot] === 1) {
        table.slotOfRowid.set(table.rowids[slot]!, slot);
        table.live++;
      }
    }
    return table;
  }

  #intColumns(): Array<[string, Int32Array]> {
    return [
      ['agent', this.agent],
      ['user', this.user],
      ['namespace', this.namespace],
      ['kind', this.kind],
      ['category', this.category],
      ['session', this.session],
    ];
  }

  /** Dead slots, as a share of all slots: past a point the index is rebuilt. */
  get deadShare(): number {
    return this.count === 0 ? 0 : (this.count - this.live) / this.count;
  }
}
