/**
 * Strings held as small integers: scope fields, kinds, categories and sessions repeat
 * across thousands of memories, and integer compares keep filtering cheap.
 */
export class InternedStrings {
  readonly #ids = new Map<string, number>();

  /** The number for `value`, assigned on first sight; -1 for null. */
  intern(value: string | null): number {
    if (value === null) return -1;
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(value, id);
    }
    return id;
  }

  /** Every string, in the order of its number. */
  values(): string[] {
    return [...this.#ids.keys()];
  }

  /** Strings numbered in the order given (the inverse of {@link InternedStrings.values}). */
  static from(values: readonly string[]): InternedStrings {
    const strings = new InternedStrings();
    for (const value of values) strings.intern(value);
    return strings;
  }

  /** The number already assigned to `value`, or undefined when no memory holds it. */
  lookup(value: string): number | undefined {
    return this.#ids.get(value);
  }
}
