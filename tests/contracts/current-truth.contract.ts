// The contract moved into the package (src/testing/contracts, shipped as
// `memoir/testing/contracts`); this path stays for tests that import it from here.
export { type CurrentTruthContractOptions, runCurrentTruthContract } from '../../src/testing/contracts/index.js';
