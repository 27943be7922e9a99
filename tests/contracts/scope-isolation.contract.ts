import type { MemoryStore } from '../../src/index.js';
import { runScopeIsolationContract as runShipped } from '../../src/testing/contracts/index.js';

// The contract moved into the package (src/testing/contracts, shipped as
// `memoir/testing/contracts`, taking `{ name, create }`); this path keeps the old
// positional form for tests that import it from here.

/** The scope-isolation contract for one store; `makeStore` returns a fresh, unopened store. */
export function runScopeIsolationContract(name: string, makeStore: () => MemoryStore): void {
  runShipped({ name, create: makeStore });
}
