import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { runMemoryStoreContract } from '../contracts/memory-store.contract.js';
import { freshPaths } from '../helpers/stores.js';

const nextDir = freshPaths('lancedb', '');

runMemoryStoreContract({ name: 'lancedb', create: () => createLanceStore({ uri: nextDir() }) });
