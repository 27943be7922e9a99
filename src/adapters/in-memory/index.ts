/**
 * The in-memory `MemoryStore`: BM25 lexical search, brute-force vector search and
 * transactions with rollback, all in process memory.
 *
 * @module
 */
export { createInMemoryStore, type InMemoryStoreOptions } from './in-memory-store.js';
