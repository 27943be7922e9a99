import type { Clock, IdGenerator } from '../core/spec/runtime.js';

/**
 * A clock that stands still until told to move, for deterministic timestamps in tests.
 *
 * @group Testing
 */
export interface FixedClock extends Clock {
  /** Move the clock forward by `ms` milliseconds (backwards when negative). */
  advance(ms: number): void;
  /** Set the clock to an epoch-milliseconds time or an ISO 8601 date. */
  set(time: number | string): void;
}

/**
 * A {@link Clock} fixed at `start` (epoch milliseconds or an ISO 8601 date; default
 * 2025-01-01T00:00:00Z) that only moves when `advance` or `set` is called.
 *
 * @example
 * ```ts
 * const clock = createFixedClock('2025-11-27T09:00:00Z');
 * const memory = createMemory({ store: createTestStore(), clock });
 * clock.advance(60_000);
 * ```
 *
 * @group Testing
 */
export function createFixedClock(start: number | string = '2025-01-01T00:00:00Z'): FixedClock {
  const toMs = (time: number | string) => {
    const ms = typeof time === 'number' ? time : Date.parse(time);
    if (!Number.isFinite(ms)) throw new TypeError(`createFixedClock: not a time: ${String(time)}`);
    return ms;
  };
  let now = toMs(start);
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    set(time) {
      now = toMs(time);
    },
  };
}

/**
 * An {@link IdGenerator} that counts: `mem_1`, `mem_2`, … per prefix, so tests can name the
 * ids they expect. Ids still sort in creation order while the counter has the same number of digits.
 *
 * @example
 * ```ts
 * const memory = createMemory({ store: createTestStore(), ids: createCounterIds() });
 * const { ids } = await memory.retain(['first', 'second']); // ['mem_1', 'mem_2']
 * ```
 *
 * @group Testing
 */
export function createCounterIds(): IdGenerator {
  const counters = new Map<string, number>();
  return {
    next(prefix) {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      return `${prefix}_${next}`;
    },
  };
}
