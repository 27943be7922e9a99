import type { SearchHit } from '../spec/store.js';

/**
 * The best `limit` hits in {@link compareHits} order, without sorting them all: a bounded
 * heap keeps the current worst of the best on top.
 */
export function topHits(hits: Iterable<SearchHit>, limit: number): SearchHit[] {
  if (limit <= 0) return [];
  const heap: SearchHit[] = [];
  // compareHits(a, b) > 0 means a ranks below b; the root is the lowest-ranked kept hit.
  const worse = (i: number, j: number) => compareHits(heap[i]!, heap[j]!) > 0;
  const swap = (i: number, j: number) => {
    const held = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = held;
  };
  const siftDown = (start: number) => {
    let i = start;
    while (true) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && worse(left, worst)) worst = left;
      if (right < heap.length && worse(right, worst)) worst = right;
      if (worst === i) return;
      swap(i, worst);
      i = worst;
    }
  };
  for (const hit of hits) {
    if (heap.length < limit) {
      heap.push(hit);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (compareHits(hit, heap[0]!) < 0) {
      heap[0] = hit;
      siftDown(0);
    }
  }
  return heap.sort(compareHits);
}

/** Best score first; equal scores by id ascending. */
export function compareHits(a: SearchHit, b: SearchHit): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
