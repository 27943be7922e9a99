import type { IndexedRow } from '../../../core/store-kit/search-index/indexed-row.js';
import { decodeNullableText, decodeStoredText } from '../../../core/text/stored-text.js';

/** Columns selected for an {@link IndexedRow}, from `memories m` left-joined to `memory_embeddings e`. */
export const INDEXED_COLUMNS =
  'm.rowid, m.id, m.agent_id, m.user_id, m.namespace, m.kind, m.category, m.session_id, m.bookmarked, m.occurred_at, m.valid_from, m.valid_to, m.lexical_terms, e.embedding';

/** A raw row in {@link INDEXED_COLUMNS} order → an {@link IndexedRow}. */
export function indexedRowOf(raw: unknown[]): IndexedRow {
  const blob = raw[13] as Uint8Array | null;
  return {
    rowid: Number(raw[0]),
    id: raw[1] as string,
    agentId: raw[2] as string | null,
    userId: raw[3] as string | null,
    namespace: raw[4] as string | null,
    kind: raw[5] as string,
    // Decoded, so filters compare the text the caller gave (see sqlite-rows).
    category: decodeStoredText(raw[6] as string),
    sessionId: decodeNullableText(raw[7] as string | null),
    bookmarked: raw[8] === 1,
    occurredAt: raw[9] as string,
    validFrom: raw[10] as string,
    validTo: raw[11] as string | null,
    terms: raw[12] as string,
    embedding: blob === null ? null : floatView(blob),
  };
}

// better-sqlite3 hands each BLOB over in a Buffer of its own; view it without copying when aligned.
function floatView(blob: Uint8Array): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}
