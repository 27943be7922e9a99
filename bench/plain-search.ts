// The least a hybrid recall has to do over a small store, written plainly in the bench: embed
// the query with the same local embedder, score BM25 over postings of the same analyzed terms,
// scan every vector by cosine, and fuse the two rankings. bench:guard times it beside memoir's
// recall of the same queries over the same memories, so the difference is memoir's fixed cost.
import { analyzeTerms } from '../src/core/text/analyze.js';
import { createLocalEmbedder } from '../src/index.js';

const K1 = 1.2;
const B = 0.75;
/** Reciprocal-rank fusion's constant, as usual. */
const RRF = 60;

/** A plain in-process search over fixed texts; see {@link createPlainSearch}. */
export interface PlainSearch {
  /** The ids (indexes into the texts) of the best `k` for `query`. */
  search(query: string, k: number): Promise<number[]>;
}

/** Builds the postings and vectors of `texts` (untimed by the callers), ready to search. */
export async function createPlainSearch(texts: readonly string[], candidates = 100): Promise<PlainSearch> {
  const embedder = createLocalEmbedder();
  const vectors = await embedder.embed([...texts]);
  const norms = vectors.map((vector) => Math.hypot(...vector));
  const postings = new Map<string, Array<[doc: number, tf: number]>>();
  const lengths = texts.map((text, doc) => {
    const terms = analyzeTerms(text);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      const list = postings.get(term) ?? [];
      list.push([doc, tf]);
      postings.set(term, list);
    }
    return terms.length;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, texts.length);
  const top = (scores: Map<number, number> | Float64Array) =>
    [...scores.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, candidates)
      .map(([doc]) => doc);
  return {
    async search(query, k) {
      const [queryVector] = await embedder.embed([query]);
      const lexical = new Map<number, number>();
      for (const term of new Set(analyzeTerms(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (texts.length - list.length + 0.5) / (list.length + 0.5));
        for (const [doc, tf] of list) {
          const score = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[doc]!) / averageLength));
          lexical.set(doc, (lexical.get(doc) ?? 0) + score);
        }
      }
      const cosine = new Float64Array(vectors.length);
      const queryNorm = Math.hypot(...queryVector!);
      for (let doc = 0; doc < vectors.length; doc++) {
        const vector = vectors[doc]!;
        let dot = 0;
        for (let i = 0; i < vector.length; i++) dot += vector[i]! * queryVector![i]!;
        cosine[doc] = dot / (norms[doc]! * queryNorm || 1);
      }
      const fused = new Map<number, number>();
      for (const ranking of [top(lexical), top(cosine)]) {
        for (const [rank, doc] of ranking.entries()) fused.set(doc, (fused.get(doc) ?? 0) + 1 / (RRF + rank + 1));
      }
      return top(fused).slice(0, k);
    },
  };
}
