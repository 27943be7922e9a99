import { lexicalText } from './memory-text.js';
import type { MemoryFilter, MemoryStore, SearchHit } from './spec/store.js';
import { analyzeTerms } from './text/analyze.js';

// Used only for stores without native search: scanning every matching memory is slow
// but correct, and keeps recall working on the smallest possible store.

const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** BM25 over the memories matching `filter`, computed in memory. */
export async function scanLexical(store: MemoryStore, text: string, filter: MemoryFilter, limit: number) {
  const queryTerms = new Set(analyzeTerms(text));
  if (queryTerms.size === 0) return [];
  const memories = await store.listMemories({ filter });
  const docs = memories.map((memory) => ({ id: memory.id, terms: analyzeTerms(lexicalText(memory)) }));
  const documentFrequency = new Map<string, number>();
  let totalLength = 0;
  for (const doc of docs) {
    totalLength += doc.terms.length;
    for (const term of new Set(doc.terms)) {
      if (queryTerms.has(term)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const averageLength = totalLength / Math.max(1, docs.length);
  const hits: SearchHit[] = [];
  for (const doc of docs) {
    let score = 0;
    const frequency = new Map<string, number>();
    for (const term of doc.terms) if (queryTerms.has(term)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    for (const [term, tf] of frequency) {
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * doc.terms.length) / averageLength));
    }
    if (score > 0) hits.push({ id: doc.id, score });
  }
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Cosine nearest neighbours over the memories matching `filter`, computed in memory. */
export async function scanVector(store: MemoryStore, vector: Float32Array, filter: MemoryFilter, limit: number) {
  const memories = await store.listMemories({ filter });
  const embeddings = await store.getEmbeddings(memories.map((memory) => memory.id));
  const hits: SearchHit[] = [];
  for (const [id, embedding] of embeddings) hits.push({ id, score: cosine(vector, embedding) });
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}
