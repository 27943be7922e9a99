import { runScopeIsolationContract } from 'memoir/testing/contracts';
import { STORES } from '../helpers/stores.js';

// Every store runs the scope-isolation contract, from the entry an outside store uses: a new
// store in tests/helpers/stores.ts joins it.
for (const [name, create] of STORES) runScopeIsolationContract({ name, create });
