/**
 * Where the memories a search just found sit in the table, so reading them next (recall reads
 * its best candidates right after searching) is a take by row address instead of a filter on
 * `id`: at 100k rows the filtered read of 40 memories cost as much as the search itself.
 *
 * An address is only a hint. A row deleted or rewritten since (an update, a compaction) is no
 * longer at its address, and a take of it returns nothing; LanceDB never reuses an address for
 * another row. So a row the take returns is live, and ids are unique among live rows: a row
 * whose id was asked for is that memory as it is now. What the take misses is read by id.
 */

/** How many addresses are kept: a few recalls' candidate lists. */
const MAX_ADDRESSES = 4096;

/** A search row with its address (`withRowId()`). */
export interface AddressedRow {
  id: string;
  _rowid?: bigint | number | null;
}

/** Row addresses by memory id, the most recently found kept. */
export class RowAddresses {
  readonly #byId = new Map<string, bigint | number>();

  /** Remember where the rows of a search result are. */
  note(rows: readonly AddressedRow[]): void {
    for (const row of rows) {
      if (row._rowid === undefined || row._rowid === null) continue;
      // Re-inserted so the map's order is the order of use, oldest first.
      this.#byId.delete(row.id);
      this.#byId.set(row.id, row._rowid);
    }
    for (const oldest of this.#byId.keys()) {
      if (this.#byId.size <= MAX_ADDRESSES) break;
      this.#byId.delete(oldest);
    }
  }

  /** The known addresses of `ids`, and the ids without one. */
  lookup(ids: readonly string[]): { addresses: Array<bigint | number>; unknown: string[] } {
    const addresses: Array<bigint | number> = [];
    const unknown: string[] = [];
    for (const id of ids) {
      const address = this.#byId.get(id);
      if (address === undefined) unknown.push(id);
      else addresses.push(address);
    }
    return { addresses, unknown };
  }

  /**
   * Whether a row a take returned is the one noted at its address: a table replaced by a bulk
   * change numbers its rows anew, so an old address may hold another memory there.
   */
  holds(row: AddressedRow): boolean {
    const address = row._rowid;
    return address !== undefined && address !== null && this.#byId.get(row.id) === address;
  }

  /** Forget everything (the table was replaced, or its rows moved wholesale). */
  clear(): void {
    this.#byId.clear();
  }
}
