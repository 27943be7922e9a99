import type { SearchHit } from '../spec/store.js';
import { topHits } from '../utils/top-hits.js';
import { analyzeTerms } from './analyze.js';

/** BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25 document-length normalisation. */
export const BM25_B = 0.75;

/** Lucene's BM25 idf: `log(1 + (N - df + 0.5) / (df + 0.5))`, always positive. */
export function bm25Idf(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

interface IndexedDocument {
  /** Number of terms, repeats included. */
  length: number;
  /** Term → occurrences in this document. */
  frequencies: Map<string, number>;
}

/** Options of {@link Bm25Index.search}. */
export interface Bm25SearchOptions {
  /** Maximum hits. */
  limit: number;
  /** Only documents for which this returns true are scored. */
  accept?: (id: string) => boolean;
  /**
   * The corpus the statistics (N, df, average length) are taken over: a tenant's own
   * documents, so that its scores never depend on what other tenants hold. Default: every
   * indexed document. Documents outside it are not scored.
   */
  corpus?: (id: string) => boolean;
}

/**
 * An inverted index scored with BM25 (k1 = 1.2, b = 0.75, Lucene idf), updated
 * incrementally as documents are added, replaced and removed. Text is turned into
 * terms with {@link analyzeTerms}; repeated query terms count once.
 */
export class Bm25Index {
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly documents = new Map<string, IndexedDocument>();
  private totalLength = 0;

  /** Number of indexed documents (N). */
  get size(): number {
    return this.documents.size;
  }

  /** Number of documents containing `term` (an analyzed term). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  /** Mean document length in terms; 0 when empty. */
  get averageLength(): number {
    return this.documents.size === 0 ? 0 : this.totalLength / this.documents.size;
  }

  /** Index `text` under `id`, replacing what was indexed under it before. */
  add(id: string, text: string): void {
    this.remove(id);
    const frequencies = new Map<string, number>();
    const terms = analyzeTerms(text);
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    for (const [term, count] of frequencies) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = new Map();
        this.postings.set(term, posting);
      }
      posting.set(id, count);
    }
    this.documents.set(id, { length: terms.length, frequencies });
    this.totalLength += terms.length;
  }

  /** Remove a document; false when it was not indexed. */
  remove(id: string): boolean {
    const document = this.documents.get(id);
    if (!document) return false;
    for (const term of document.frequencies.keys()) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      posting.delete(id);
      if (posting.size === 0) this.postings.delete(term);
    }
    this.documents.delete(id);
    this.totalLength -= document.length;
    return true;
  }

  /**
   * What is out of step in the index, one sentence each (at most `limit`): a document missing
   * from `expected` (id → the text it should hold) or indexed with other terms, a stale one,
   * postings that disagree with their documents, or a total length that is not their sum.
   * Empty when the index is exactly what `expected` would build. For a store's `check()`.
   */
  problems(expected: ReadonlyMap<string, string>, limit = 10): string[] {
    const found: string[] = [];
    const note = (problem: string) => {
      if (found.length < limit) found.push(problem);
    };
    for (const [id, text] of expected) {
      const document = this.documents.get(id);
      if (!document) {
        note(`"${id}" is missing from the lexical index`);
        continue;
      }
      const terms = analyzeTerms(text);
      const frequencies = new Map<string, number>();
      for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
      const same =
        document.length === terms.length &&
        document.frequencies.size === frequencies.size &&
        [...frequencies].every(([term, count]) => document.frequencies.get(term) === count);
      if (!same) note(`"${id}" is indexed with terms other than its text's`);
    }
    let totalLength = 0;
    let postingsExpected = 0;
    for (const [id, document] of this.documents) {
      if (!expected.has(id)) note(`the lexical index holds "${id}", which is not stored`);
      totalLength += document.length;
      postingsExpected += document.frequencies.size;
      for (const [term, count] of document.frequencies) {
        if (this.postings.get(term)?.get(id) !== count) note(`the posting of "${term}" disagrees with "${id}"`);
      }
    }
    let postingsHeld = 0;
    for (const posting of this.postings.values()) postingsHeld += posting.size;
    if (postingsHeld !== postingsExpected) {
      note(`the lexical index holds ${postingsHeld} postings, its documents name ${postingsExpected}`);
    }
    if (totalLength !== this.totalLength) {
      note(`the lexical index's total length is ${this.totalLength}, its documents add up to ${totalLength}`);
    }
    return found;
  }

  /** Remove every document. */
  clear(): void {
    this.postings.clear();
    this.documents.clear();
    this.totalLength = 0;
  }

  /**
   * Documents sharing at least one term with `query`, best first; equal scores in id order.
   * Corpus statistics (N, df, average length) cover the `corpus` (every indexed document by
   * default), not only the accepted ones.
   */
  search(query: string, options: Bm25SearchOptions): SearchHit[] {
    const limit = Math.max(0, Math.floor(options.limit));
    if (limit === 0 || this.documents.size === 0) return [];
    const { corpus } = options;
    let count = this.documents.size;
    let totalLength = this.totalLength;
    if (corpus) {
      count = 0;
      totalLength = 0;
      for (const [id, document] of this.documents) {
        if (!corpus(id)) continue;
        count++;
        totalLength += document.length;
      }
      if (count === 0) return [];
    }
    const averageLength = totalLength / count;
    const scores = new Map<string, number>();
    const rejected = new Set<string>();
    for (const term of new Set(analyzeTerms(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      let frequencyOfTerm = posting.size;
      if (corpus) {
        frequencyOfTerm = 0;
        for (const id of posting.keys()) if (corpus(id)) frequencyOfTerm++;
        if (frequencyOfTerm === 0) continue;
      }
      const idf = bm25Idf(count, frequencyOfTerm);
      for (const [id, frequency] of posting) {
        if (rejected.has(id)) continue;
        if (!scores.has(id) && ((corpus && !corpus(id)) || (options.accept && !options.accept(id)))) {
          rejected.add(id);
          continue;
        }
        const length = this.documents.get(id)?.length ?? 0;
        const norm = 1 - BM25_B + (BM25_B * length) / averageLength;
        const score = (idf * frequency * (BM25_K1 + 1)) / (frequency + BM25_K1 * norm);
        scores.set(id, (scores.get(id) ?? 0) + score);
      }
    }
    const hits: SearchHit[] = [];
    for (const [id, score] of scores) hits.push({ id, score });
    return topHits(hits, limit);
  }
}
