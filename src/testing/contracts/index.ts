/**
 * The storage contracts memoir's own stores pass, as vitest suites for a store of your own:
 * call them at the top level of a test file and run it with vitest (an optional peer
 * dependency of memoir: install it to use this entry). Written against the public API only —
 * the store port from `memoir` and the builders from `memoir/testing` — so a store that passes
 * works under memoir as the built-in ones do.
 *
 * This entry is ESM only, as vitest is: import it from an ESM test file (vitest runs
 * TypeScript test files as ESM). The rest of `memoir/testing` needs no vitest.
 *
 * ```ts
 * import { runMemoryStoreContract, runScopeIsolationContract } from 'memoir/testing/contracts';
 * ```
 *
 * @module memoir/testing/contracts
 */
export type { ContractSkip } from './contract-skips.js';
export {
  type CurrentTruthContractOptions,
  type CurrentTruthStore,
  runCurrentTruthContract,
} from './current-truth-contract.js';
export {
  type MemoryStoreContractOptions,
  runMemoryStoreContract,
  type StoreContractCapabilities,
} from './memory-store-contract.js';
export { runScopeIsolationContract, type ScopeIsolationContractOptions } from './scope-isolation-contract.js';
