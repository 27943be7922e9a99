import { renderMemoryEntry } from '../shared/format-context.js';
import { loadTokenCounter } from '../utils/token-counter.js';
import type { RecallResult } from './recall-result.js';

/**
 * Keep whole results, best first, while they fit in `budget` tokens. A result too large
 * for what is left is dropped and smaller ones after it may still fit.
 */
export async function packIntoBudget(results: Array<Omit<RecallResult, 'tokens'>>, budget: number) {
  const count = await loadTokenCounter();
  const packed: RecallResult[] = [];
  let used = 0;
  let dropped = 0;
  for (const result of results) {
    const tokens = count(renderMemoryEntry(result.memory));
    if (used + tokens > budget) {
      dropped++;
      continue;
    }
    used += tokens;
    packed.push({ ...result, tokens });
  }
  return { packed, used, dropped };
}
