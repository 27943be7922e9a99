import type { Memory } from '../spec/memory.js';
import type { LexicalSearchQuery, SearchHit, VectorSearchQuery } from '../spec/store.js';
import { Bm25Index } from '../text/bm25-index.js';
import { lexicalText } from '../text/memory-text.js';
import { topHits } from '../utils/top-hits.js';
import { cosineSimilarity } from './vector-math.js';

/** What a search reads: the core's view of a store (typed here by shape, as search sits below it). */
interface SearchableStore {
  searchLexical?(query: LexicalSearchQuery): Promise<SearchHit[]>;
  searchVector?(query: VectorSearchQuery): Promise<SearchHit[]>;
  listMemories(query?: { filter?: LexicalSearchQuery['filter'] }): Promise<Memory[]>;
  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>>;
}

/**
 * The one place that decides whether a store searches natively: when it has the method.
 * Presence is the port's promise, so a wrapper defines a search only when the store it wraps has it.
 */
export function searchesNatively(store: SearchableStore, search: 'lexical' | 'vector'): boolean {
  return search === 'lexical' ? typeof store.searchLexical === 'function' : typeof store.searchVector === 'function';
}

/**
 * Lexical (BM25) search, best first: the store's own when it has one, else BM25 over the
 * matching memories indexed on the fly — slow on a large store, but correct on the smallest.
 */
export async function searchLexical(store: SearchableStore, query: LexicalSearchQuery): Promise<SearchHit[]> {
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
  store: SearchableStore,
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
