// The example store runs the contract memoir's own stores pass, from the installed package
// as any store's author would (`npx vitest run` in a project with memoir and vitest).
import { runMemoryStoreContract, runScopeIsolationContract } from 'memoir/testing/contracts';
import { createMapStore } from './map-store.js';

runMemoryStoreContract({
  name: 'map-store',
  create: createMapStore,
  // It offers no lexical search: those tests are skipped, and the rest check that it says so.
  capabilities: { lexicalSearch: false },
});

runScopeIsolationContract({ name: 'map-store', create: createMapStore });
