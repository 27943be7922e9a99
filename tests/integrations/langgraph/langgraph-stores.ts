import { Embeddings } from '@langchain/core/embeddings';
import { type BaseStore, InMemoryStore } from '@langchain/langgraph';
import { afterEach, expect } from 'vitest';
import { createLocalEmbedder, type MemoryClient, type MemoryOptions } from '../../../src/index.js';
import { MemoirStore } from '../../../src/integrations/langgraph/index.js';
import { STORES, storeAndClient } from '../../helpers/stores.js';

// The stores the LangGraph behaviour table runs on: LangGraph's own InMemoryStore (the
// reference, given a vector index so a query ranks), and MemoirStore over every memoir store
// (tests/helpers/stores.ts). Every store made here is closed after each test.

/** memoir's local embedder as LangChain `Embeddings`, so the reference store ranks queries offline. */
export class LocalEmbeddings extends Embeddings {
  readonly #embedder = createLocalEmbedder();

  constructor() {
    super({});
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return (await this.#embedder.embed(texts)).map((vector) => Array.from(vector));
  }

  override async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embedDocuments([text]);
    return vector!;
  }
}

/** A store under test, typed as LangGraph types it, and the memoir client behind it (none for the reference). */
export interface StoreUnderTest {
  store: BaseStore;
  memory: MemoryClient | undefined;
}

/** Makes a fresh store under test. */
export type StoreMaker = (options?: Omit<MemoryOptions, 'store'>) => StoreUnderTest;

/** Every MemoirStore variant: one per memoir store. Register at the top of a test file. */
export function memoirStores(): Array<[name: string, make: StoreMaker]> {
  const clients: MemoryClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((memory) => memory.close()));
  });
  return STORES.map(([name, makeStore]) => [
    `MemoirStore on ${name}`,
    (options = {}) => {
      const { memory } = storeAndClient(makeStore, options);
      clients.push(memory);
      const store: BaseStore = new MemoirStore({ memory });
      return { store, memory };
    },
  ]);
}

/** The reference: LangGraph's InMemoryStore with a vector index over the local embedder. */
export const referenceStore: [name: string, make: StoreMaker] = [
  'InMemoryStore (LangGraph, the reference)',
  () => ({
    store: new InMemoryStore({ index: { dims: 256, embeddings: new LocalEmbeddings() } }),
    memory: undefined,
  }),
];

/** The keys of items, sorted (for results whose order the stores may differ on). */
export const keysOf = (items: ReadonlyArray<{ key: string }>) => items.map((item) => item.key).sort();

/** Wait `ms` milliseconds (so two puts get different timestamps). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What `promise` rejects with; the calling test fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.fail('expected a rejection, but the promise resolved');
}
