import type { BaseStore, Item, MatchCondition, Operation } from '@langchain/langgraph';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { createMemory } from '../../../src/index.js';
import {
  type LangGraphItem,
  type LangGraphMatchCondition,
  type LangGraphOperation,
  type LangGraphSearchItem,
  MemoirStore,
  type MemoirStoreOptions,
} from '../../../src/integrations/langgraph/index.js';

// A type test, checked by `npm run typecheck` (tsconfig covers tests/): MemoirStore against the
// real @langchain/langgraph types. memoir's declarations restate LangGraph's store types (they
// must not import an optional peer), so each is checked here against the original both ways;
// and each `@ts-expect-error` line must stay an error, or the check fails.

// LangGraph exports SearchItem from @langchain/langgraph-checkpoint only; this is its type.
type SearchItem = Awaited<ReturnType<BaseStore['search']>>[number];

const store = new MemoirStore({ memory: createMemory() });

// A MemoirStore is a LangGraph BaseStore, and a graph compiles with it.
export const asBaseStore: BaseStore = store;
export const graph = new StateGraph(MessagesAnnotation)
  .addNode('noop', () => ({}))
  .addEdge('__start__', 'noop')
  .compile({ store });

// memoir's restated types and LangGraph's are the same shapes.
declare const item: Item;
declare const ours: LangGraphItem;
declare const searchItem: SearchItem;
declare const ourSearchItem: LangGraphSearchItem;
declare const operation: Operation;
declare const ourOperation: LangGraphOperation;
declare const condition: MatchCondition;
declare const ourCondition: LangGraphMatchCondition;
export const itemsAgree: [LangGraphItem, Item] = [item, ours];
export const searchItemsAgree: [LangGraphSearchItem, SearchItem] = [searchItem, ourSearchItem];
export const operationsAgree: [LangGraphOperation, Operation] = [operation, ourOperation];
export const conditionsAgree: [LangGraphMatchCondition, MatchCondition] = [condition, ourCondition];

// A store of the wrong shape is not a BaseStore: the check above would catch a drift.
type WrongSearch = Omit<MemoirStore, 'search'> & { search(prefix: string): Promise<SearchItem[]> };
type WrongBatch = Omit<MemoirStore, 'batch'> & { batch(operations: Operation[]): Promise<string> };
declare const wrongSearch: WrongSearch;
declare const wrongBatch: WrongBatch;
// @ts-expect-error search takes a namespace prefix (string[]), not a string
export const notAStore: BaseStore = wrongSearch;
// @ts-expect-error batch resolves to one result per operation
export const notAStoreEither: BaseStore = wrongBatch;

// Wrong fields in the store's own calls and options fail too.
// @ts-expect-error the option is `memory`, not `client`
export const wrongOption: MemoirStoreOptions = { client: createMemory() };
// @ts-expect-error a namespace is a list of labels
export const wrongNamespace = () => store.put('users/u1', 'k', { text: 'x' });
// @ts-expect-error a value is an object
export const wrongValue = () => store.put(['users', 'u1'], 'k', 'text');
// @ts-expect-error limit is a number
export const wrongLimit = () => store.search(['users'], { limit: 'ten' });
// @ts-expect-error a match condition is a prefix or a suffix
export const wrongCondition: LangGraphMatchCondition = { matchType: 'infix', path: ['a'] };
