import type { CoreBlockState } from '../core-block/core-block-api.js';
import type { TokenCounter } from '../utils/token-counter.js';

/** The share of a recall's token budget the core block may take when the call names none. */
export const DEFAULT_CORE_SHARE = 0.5;

/**
 * The core block as it goes into a prompt: its text, cut to a token allowance when it did
 * not fit one.
 *
 * @group Core block
 */
export interface CoreBlockInContext extends CoreBlockState {
  /** Set when the text was cut to fit: the tokens of the whole block (`tokens` counts what is shown). */
  truncatedFrom?: number;
}

/**
 * The block cut to at most `maxTokens`: whole lines from the top while they fit (the block is
 * written most-important-first, like Letta's core memory), then as much of the next line as
 * fits. An allowance of zero leaves nothing.
 */
export function fitCoreBlock(state: CoreBlockState, maxTokens: number, count: TokenCounter): CoreBlockInContext {
  if (state.tokens <= maxTokens) return state;
  const lines = state.text.split('\n');
  let kept = '';
  for (const line of lines) {
    const candidate = kept === '' ? line : `${kept}\n${line}`;
    if (count(candidate) > maxTokens) {
      kept = longestPrefix(kept, line, maxTokens, count);
      break;
    }
    kept = candidate;
  }
  const text = kept.trimEnd();
  return { ...state, text, tokens: count(text), truncatedFrom: state.tokens };
}

// The most characters of `line` that still fit after `kept` (a binary search: tokens grow with length).
function longestPrefix(kept: string, line: string, maxTokens: number, count: TokenCounter): string {
  const join = (end: number) => (kept === '' ? line.slice(0, end) : `${kept}\n${line.slice(0, end)}`);
  let low = 0;
  let high = line.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (count(join(middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  return low === 0 ? kept : join(low);
}
