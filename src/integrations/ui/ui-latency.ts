/** Recall latencies the view has seen (its own searches and every other recall of its client), as percentiles. */

/** The last `capacity` recall durations and their percentiles. */
export interface LatencyLog {
  /** Record one recall's wall time, milliseconds. */
  add(durationMs: number): void;
  /** Recalls recorded (up to the capacity). */
  readonly count: number;
  /** The p-th percentile (0..100) of the recorded durations, nearest rank; undefined before any. */
  percentile(p: number): number | undefined;
}

/** A ring of the last `capacity` durations. */
export function createLatencyLog(capacity = 1000): LatencyLog {
  const values: number[] = [];
  let next = 0;
  return {
    add(durationMs) {
      if (!Number.isFinite(durationMs) || durationMs < 0) return;
      if (values.length < capacity) values.push(durationMs);
      else values[next] = durationMs;
      next = (next + 1) % capacity;
    },
    get count() {
      return values.length;
    },
    percentile(p) {
      if (values.length === 0) return undefined;
      const sorted = [...values].sort((a, b) => a - b);
      const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
      return sorted[rank - 1];
    },
  };
}
