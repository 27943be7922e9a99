/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** Epoch milliseconds as the ISO 8601 text memoir stores (always `toISOString()` form, so it sorts as text). */
export function isoAt(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
