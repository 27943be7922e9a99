/**
 * memoir as a LangGraph.js store: {@link MemoirStore} is a `BaseStore` a graph compiles with
 * (`graph.compile({ store })`), so the items its nodes put and search live in memoir — ranked
 * by memoir's recall, kept in its SQLite file and backups, separated by its scopes.
 * `@langchain/langgraph` and `@langchain/core` are optional peers: install them to use it.
 *
 * Namespaces map onto memoir's scopes: `["users", id, …]` is the memoir user `id`,
 * `["agents", id, …]` the agent `id` (both may lead, in either order); other labels are a path
 * kept verbatim inside the store's own scope. See docs/guides/langgraph.md.
 *
 * @groupDescription LangGraph
 * The store, its options, and memoir's statement of the LangGraph store types its members use
 * (checked against `@langchain/langgraph`'s own by the type test).
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { MemoirStore } from 'memoir/langgraph';
 *
 * const store = new MemoirStore({ memory: createMemory() });
 * await store.put(['users', 'u1', 'facts'], 'diet', { text: 'Vegetarian since 2020.' });
 * const [best] = await store.search(['users', 'u1'], { query: 'what does the user eat?' });
 * ```
 *
 * @module memoir/langgraph
 */

export type { MemoirStoreOptions } from './langgraph-options.js';
export type {
  LangGraphGetOperation,
  LangGraphItem,
  LangGraphListNamespacesOperation,
  LangGraphMatchCondition,
  LangGraphOperation,
  LangGraphOperationResults,
  LangGraphPutOperation,
  LangGraphSearchItem,
  LangGraphSearchOperation,
} from './langgraph-types.js';
export { LANGGRAPH_CATEGORY, MemoirStore } from './memoir-store.js';
