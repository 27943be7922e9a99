import { runScopeIsolationContract } from '../contracts/scope-isolation.contract.js';
import { STORES } from '../helpers/stores.js';

// Every store runs the scope-isolation contract: a new store in tests/helpers/stores.ts joins it.
for (const [name, makeStore] of STORES) runScopeIsolationContract(name, makeStore);
