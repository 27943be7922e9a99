import type { MemoryFilter, MemoryStore, SearchHit } from '../spec/store.js';
import { Bm25Index, cosineSimilarity, topHits } from '../text/bm25-index.js';
import { lexicalText } from '../text/memory-text.js';

// Used only for stores without native search: scanning every matching memory is slow
// but correct, and keeps recall working on the smallest possible store.

/** BM25 over the memories matching `filter`, indexed on the fly. */
export async function scanLexical(store: MemoryStore, text: string, filter: MemoryFilter, limit: number) {
  const index = new Bm25Index();
  for (const memory of await store.listMemories({ filter })) index.add(memory.id, lexicalText(memory));
  return index.search(text, { limit });
}

/** Cosine nearest neighbours over the memories matching `filter`. */
export async function scanVector(store: MemoryStore, vector: Float32Array, filter: MemoryFilter, limit: number) {
  const memories = await store.listMemories({ filter });
  const embeddings = await store.getEmbeddings(memories.map((memory) => memory.id));
  const hits: SearchHit[] = [];
  for (const [id, embedding] of embeddings) hits.push({ id, score: cosineSimilarity(vector, embedding) });
  return topHits(hits, limit);
}
