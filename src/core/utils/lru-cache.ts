/** A least-recently-used cache with hit and miss counters. */
export class LruCache<K, V> {
  readonly #capacity: number;
  readonly #entries = new Map<K, V>();
  #hits = 0;
  #misses = 0;

  /** A cache holding at most `capacity` entries. */
  constructor(capacity: number) {
    this.#capacity = Math.max(1, Math.floor(capacity));
  }

  /** The value for `key`, marking it most recently used; undefined (a miss) when absent. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    // Re-inserting moves the key to the end of the Map's order: the most recent end.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Store a value, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  /** Entries held, lookups that hit and missed, and the hit rate (0 before any lookup). */
  stats() {
    const lookups = this.#hits + this.#misses;
    return {
      size: this.#entries.size,
      hits: this.#hits,
      misses: this.#misses,
      hitRate: lookups ? this.#hits / lookups : 0,
    };
  }
}
