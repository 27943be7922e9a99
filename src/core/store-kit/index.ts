/**
 * What a store of your own needs besides the port (`MemoryStore` from `memoir`): the write
 * queue, the transaction nesting guard and the closed state every store shares (together in
 * {@link createStoreGate}), and the filter, order and page helpers with the port's exact
 * semantics, so a store that holds its records in JavaScript answers `list` in one line. Every
 * store in memoir is built on it; `examples/custom-store` shows a complete store in a page.
 *
 * ```ts
 * import { createStoreGate, listMemoriesIn, memoryMatches } from 'memoir/store-kit';
 * ```
 *
 * @module memoir/store-kit
 */
export { memoryMatches } from '../search/memory-filter.js';
export { closedStoreError } from './closed-state.js';
export {
  compareIds,
  filterMemories,
  listMemoriesIn,
  listRecordsIn,
  pageOf,
  sortMemories,
} from './memory-query.js';
export { createStoreGate, type StoreGate, type StoreGateOptions, type TransactionSteps } from './store-gate.js';
export { TransactionScope } from './transaction-scope.js';
export { WriteQueue } from './write-queue.js';
