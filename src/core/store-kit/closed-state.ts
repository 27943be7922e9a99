import { StoreError } from '../spec/errors.js';

/**
 * The StoreError every call on a closed store rejects with.
 *
 * @param where - The store, as the message names it: its name, path or URI.
 * @param options - `component` (the store's name, default `where`) and `suggestion` (what to do instead).
 * @group Store kit
 */
export function closedStoreError(where: string, options: { component?: string; suggestion?: string } = {}): StoreError {
  return new StoreError(`store ${JSON.stringify(where)} is closed`, {
    component: options.component ?? where,
    suggestion: options.suggestion ?? 'Create a new store.',
  });
}
