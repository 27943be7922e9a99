/** What the search index reads of one memory: the columns it filters on, its terms, its vector. */
export interface IndexedRow {
  /** The store's own integer key of the row (SQLite's rowid; a number the LanceDB index assigns). */
  rowid: number;
  id: string;
  agentId: string | null;
  userId: string | null;
  namespace: string | null;
  kind: string;
  category: string;
  sessionId: string | null;
  bookmarked: boolean;
  /** ISO timestamps or epoch milliseconds, as the store keeps them. */
  occurredAt: string | number;
  validFrom: string | number;
  validTo: string | number | null;
  /** The analysed terms, space-separated, as the store keeps them (`lexical_terms`). */
  terms: string;
  /** The stored float32 vector, or null while the memory waits for its embedding. */
  embedding: Float32Array | null;
}
