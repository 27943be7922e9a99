import type { LexicalSearchQuery, MemoryStore, SearchHit, VectorSearchQuery } from '../spec/store.js';
import { Bm25Index } from '../text/bm25-index.js';
import { lexicalText } from '../text/memory-text.js';
import { topHits } from '../utils/top-hits.js';
import { cosineSimilarity } from './vector-math.js';

/**
 * The one place that decides whether a store searches natively. A store searches natively
 * when it announces the capability and implements the method: the flag is the port's
 * promise, so a method without the flag (a wrapper forwarding to a store that lacks it,
 * say) is not called, and a flag without the method falls back instead of failing.
 */
export function searchesNatively(store: MemoryStore, search: 'lexical' | 'vector'): boolean {
  return search === 'lexical'
    ? store.capabilities.lexicalSearch === true && typeof store.searchLexical === 'function'
    : store.capabilities.vectorSearch === true && typeof store.searchVector === 'function';
}

/**
 * Lexical (BM25) search, best first: the store's own when it has one, else BM25 over the
 * matching memories indexed on the fly — slow on a large store, but correct on the smallest.
 */
export async function searchLexical(store: MemoryStore, query: LexicalSearchQuery): Promise<SearchHit[]> {
  if (searchesNatively(store, 'lexical')) return store.searchLexical!(query);
  const index = new Bm25Index();
  for (const memory of await store.listMemories({ filter: query.filter })) index.add(memory.id, lexicalText(memory));
  return index.search(query.text, { limit: query.limit });
}

/**
 * Nearest neighbours by cosine similarity, best first: the store's own search when it has
 * one, else an exact scan. A caller that already holds the embeddings of the memories
 * matching `query.filter` passes them as `loaded`, and the scan reads nothing more.
 */
export async function searchVector(
  store: MemoryStore,
  query: VectorSearchQuery,
  loaded?: ReadonlyMap<string, Float32Array>,
): Promise<SearchHit[]> {
  if (searchesNatively(store, 'vector')) return store.searchVector!(query);
  const embeddings =
    loaded ??
    (await store.getEmbeddings((await store.listMemories({ filter: query.filter })).map((memory) => memory.id)));
  const hits: SearchHit[] = [];
  for (const [id, embedding] of embeddings) hits.push({ id, score: cosineSimilarity(query.vector, embedding) });
  return topHits(hits, query.limit);
}
