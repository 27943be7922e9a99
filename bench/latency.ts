// Latency summaries shared by the benches: medians, since these machines are shared and noisy.

/** The value at quantile `q` of an ascending list. */
export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** p50 and p95 of a list of timings. */
export function percentiles(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}
