import { renderMemoryEntry } from '../shared/format-context.js';
import { loadTokenCounter } from '../utils/token-counter.js';
import type { RecallResult } from './recall-result.js';

/**
 * Keep whole results (a turn with the turns folded into it), best first, while they fit in `budget` tokens. A result too large
 * for what is left is dropped and smaller ones after it may still fit.
 */
export async function packIntoBudget(results: Array<Omit<RecallResult, 'tokens'>>, budget: number) {
  const count = await loadTokenCounter();
  const packed: RecallResult[] = [];
  let used = 0;
  let dropped = 0;
  for (const whole of results) {
    let result = whole;
    let tokens = count(renderMemoryEntry(result.memory, 'content', result.turns));
    // A turn whose neighbours do not fit is still worth its own words.
    if (used + tokens > budget && result.turns) {
      const { turns: _turns, ...alone } = result;
      result = alone;
      tokens = count(renderMemoryEntry(result.memory));
    }
    if (used + tokens > budget) {
      dropped++;
      continue;
    }
    used += tokens;
    packed.push({ ...result, tokens });
  }
  return { packed, used, dropped };
}
