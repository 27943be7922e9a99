/**
 * The best `limit` of `count` candidate slots, best first: higher score, then lower id
 * (the order `topHits` gives), through a bounded heap so that tens of thousands of
 * matches cost no sort and no objects.
 */
export function topSlots(
  candidates: Int32Array,
  count: number,
  scoreOf: (slot: number) => number,
  idOf: (slot: number) => string,
  limit: number,
  accepts: ((slot: number) => boolean) | undefined,
): number[] {
  if (limit <= 0) return [];
  const heap: number[] = [];
  const heapScores: number[] = [];
  // Below(i, j): entry i ranks below entry j. The root is the lowest-ranked kept slot.
  const below = (i: number, j: number) => {
    if (heapScores[i] !== heapScores[j]) return heapScores[i]! < heapScores[j]!;
    return idOf(heap[i]!) > idOf(heap[j]!);
  };
  const swap = (i: number, j: number) => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
    [heapScores[i], heapScores[j]] = [heapScores[j]!, heapScores[i]!];
  };
  for (let c = 0; c < count; c++) {
    const slot = candidates[c]!;
    const score = scoreOf(slot);
    if (heap.length === limit) {
      const rootScore = heapScores[0]!;
      if (score < rootScore || (score === rootScore && idOf(slot) > idOf(heap[0]!))) continue;
    }
    if (accepts && !accepts(slot)) continue;
    if (heap.length < limit) {
      heap.push(slot);
      heapScores.push(score);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!below(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
      continue;
    }
    heap[0] = slot;
    heapScores[0] = score;
    let i = 0;
    while (true) {
      const left = 2 * i + 1;
      const right = left + 1;
      let lowest = i;
      if (left < heap.length && below(left, lowest)) lowest = left;
      if (right < heap.length && below(right, lowest)) lowest = right;
      if (lowest === i) break;
      swap(i, lowest);
      i = lowest;
    }
  }
  const order = heap.map((slot, i) => ({ slot, score: heapScores[i]!, id: idOf(slot) }));
  order.sort((a, b) => (a.score !== b.score ? b.score - a.score : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return order.map((entry) => entry.slot);
}
