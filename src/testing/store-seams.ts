// The store seams a store's author needs beside the contracts: memoir's fallbacks for the port's
// optional members, and what a store's declared capabilities resolve to.
export {
  type ResolvedStoreCapabilities,
  resolveCapabilities as resolveStoreCapabilities,
} from '../core/utils/store-capabilities.js';
export { completeStore } from '../core/utils/store-fallbacks.js';
