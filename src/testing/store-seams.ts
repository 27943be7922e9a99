// What a store author's tests need beside the contracts: memoir's view of a store (the port
// under the names the core calls, with the members memoir derives when the store lacks them),
// and what a store's declared guarantees and present members resolve to.
export {
  type CoreStore as DerivedStore,
  coreStore as derivedStore,
  type RecordCollection,
} from '../core/store/store-facade.js';
export {
  type ResolvedStoreCapabilities,
  resolveCapabilities as resolveStoreCapabilities,
} from '../core/utils/store-capabilities.js';
