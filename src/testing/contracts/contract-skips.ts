import { expect, it } from 'vitest';

/**
 * Tests of a contract a store cannot pass, with the reason (shown in the skipped test's title
 * and logged).
 *
 * @group Testing
 */
export interface ContractSkip {
  /** Why the store cannot pass them, e.g. "keeps no history across processes". */
  reason: string;
  /** The titles of the tests, as the contract declares them (without the suite prefix). */
  tests?: readonly string[];
  /**
   * Every test whose title matches, e.g. `/^filter: /` — for a second run of a store over
   * another backend that need not repeat what does not touch storage differently. It must
   * match at least one test.
   */
  matching?: RegExp;
}

/** Declares a contract's tests, skipping those a store opted out of or cannot run. */
export interface ContractTests {
  /**
   * Declare one test; skipped when the skip list names it, or when `missing` names a part of
   * the port the store does not offer.
   */
  test(name: string, body: () => Promise<void>, missing?: string): void;
  /** Declare the last test: it fails when the skip list names a test this contract never declared. */
  checkSkipList(): void;
}

/**
 * The test declarer of one contract run. Skipped tests are declared with `it.skip`, their
 * title carrying the reason, so a report shows what a store leaves out and why.
 */
export function contractTests(suite: string, skip: readonly ContractSkip[] | undefined): ContractTests {
  const reasons = new Map<string, string>();
  for (const group of skip ?? []) for (const name of group.tests ?? []) reasons.set(name, group.reason);
  const patterns = (skip ?? []).flatMap((group) => (group.matching ? [{ ...group, matching: group.matching }] : []));
  const matched = new Set<RegExp>();
  const reasonFor = (name: string): string | undefined => {
    const named = reasons.get(name);
    if (named !== undefined) return named;
    const pattern = patterns.find((group) => group.matching.test(name));
    if (pattern) matched.add(pattern.matching);
    return pattern?.reason;
  };
  const declared = new Set<string>();
  return {
    test(name, body, missing) {
      if (declared.has(name)) throw new Error(`duplicate contract test "${name}"`);
      declared.add(name);
      const reason = reasonFor(name) ?? (missing === undefined ? undefined : `the store offers no ${missing}`);
      if (reason === undefined) {
        it(name, body);
        return;
      }
      console.info(`[${suite}] skipped "${name}": ${reason}`);
      it.skip(`${name} (skipped: ${reason})`, body);
    },
    checkSkipList() {
      // Checked when tests run: vitest collects nested describe blocks only after the
      // contract's callback returns, so every test is declared by then.
      it('the skip list names only tests of this suite', () => {
        const unknown = [...reasons.keys()].filter((name) => !declared.has(name));
        expect(unknown, 'skip entries naming no contract test').toEqual([]);
        const idle = patterns.filter((group) => !matched.has(group.matching)).map((group) => String(group.matching));
        expect(idle, 'skip patterns matching no contract test').toEqual([]);
      });
    },
  };
}
