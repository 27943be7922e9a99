// memoir's own copy of the slice of LangGraph's store types that MemoirStore's public members
// name. The declarations memoir ships must not import @langchain/langgraph (an optional peer:
// a project without it still type-checks every subpath), so they are restated here; the type
// test in tests/integrations/langgraph/ checks them against the real ones in both directions,
// so a drift fails the type check.

/**
 * A stored item, as LangGraph's `Item`.
 *
 * @group LangGraph
 */
export interface LangGraphItem {
  /** The stored value: a JSON object. Its fields are what `filter` matches. */
  value: Record<string, unknown>;
  /** The item's key, unique within its namespace. */
  key: string;
  /** The hierarchical path of the collection it belongs to, e.g. `["users", "u1", "memories"]`. */
  namespace: string[];
  /** When it was first put. */
  createdAt: Date;
  /** When it was last put. */
  updatedAt: Date;
}

/**
 * An item found by `search`, as LangGraph's `SearchItem`.
 *
 * @group LangGraph
 */
export interface LangGraphSearchItem extends LangGraphItem {
  /**
   * memoir's recall score (0..1, higher is better) when a `query` ranked the item; undefined
   * for items listed without a query, or listed after the ranked ones.
   */
  score?: number;
}

/**
 * Read one item, as LangGraph's `GetOperation`.
 *
 * @group LangGraph
 */
export interface LangGraphGetOperation {
  /** The item's namespace. */
  namespace: string[];
  /** The item's key. */
  key: string;
}

/**
 * Find items under a namespace prefix, as LangGraph's `SearchOperation`.
 *
 * @group LangGraph
 */
export interface LangGraphSearchOperation {
  /** Only items whose namespace starts with these labels; `[]` searches every namespace the store sees. */
  namespacePrefix: string[];
  /**
   * Only items whose value has these fields: a value for equality (deep, for objects and
   * arrays), or an object of operators `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$nin`.
   */
  // biome-ignore lint/suspicious/noExplicitAny: identical to LangGraph's declaration — TypeScript relates batch's conditional result type to BaseStore's only when the operation types are identical, not merely compatible.
  filter?: Record<string, any>;
  /** The most items to return. Default 10. */
  limit?: number;
  /** Items to skip first. Default 0. */
  offset?: number;
  /** Rank by memoir's recall for this text: matches first, best first, then the other items. */
  query?: string;
}

/**
 * Write (or, with `value: null`, delete) one item, as LangGraph's `PutOperation`.
 *
 * @group LangGraph
 */
export interface LangGraphPutOperation {
  /** The item's namespace. */
  namespace: string[];
  /** The item's key. */
  key: string;
  /** The value, a JSON object; `null` deletes the item. */
  // biome-ignore lint/suspicious/noExplicitAny: identical to LangGraph's declaration (see `filter` above).
  value: Record<string, any> | null;
  /**
   * Which fields recall searches: paths such as `"text"`, `"profile.name"`, `"notes[*]"`;
   * `false` keeps the item out of query ranking. Default: the store's `index.fields`, else the whole value.
   */
  index?: false | string[];
}

/**
 * A namespace pattern, as LangGraph's `MatchCondition`.
 *
 * @group LangGraph
 */
export interface LangGraphMatchCondition {
  /** Whether `path` must match the start or the end of a namespace. */
  matchType: 'prefix' | 'suffix';
  /** Labels to match; `"*"` matches any one label. */
  path: string[];
}

/**
 * List namespaces, as LangGraph's `ListNamespacesOperation`.
 *
 * @group LangGraph
 */
export interface LangGraphListNamespacesOperation {
  /** Conditions every listed namespace meets. */
  matchConditions?: LangGraphMatchCondition[];
  /** Cut namespaces to this many labels (then listed once each). */
  maxDepth?: number;
  /** The most namespaces to return. */
  limit: number;
  /** Namespaces to skip first. */
  offset: number;
}

/**
 * One operation of `batch`.
 *
 * @group LangGraph
 */
export type LangGraphOperation =
  | LangGraphGetOperation
  | LangGraphSearchOperation
  | LangGraphPutOperation
  | LangGraphListNamespacesOperation;

/**
 * What `batch` resolves to: one result per operation, in order — an item or null for a get,
 * items for a search, nothing for a put, namespaces for a listing.
 *
 * @group LangGraph
 */
export type LangGraphOperationResults<Tuple extends readonly LangGraphOperation[]> = {
  [K in keyof Tuple]: Tuple[K] extends LangGraphPutOperation
    ? // biome-ignore lint/suspicious/noConfusingVoidType: LangGraph's own result type for a put (the store resolves it to null, as InMemoryStore does).
      void
    : Tuple[K] extends LangGraphSearchOperation
      ? LangGraphSearchItem[]
      : Tuple[K] extends LangGraphGetOperation
        ? LangGraphItem | null
        : Tuple[K] extends LangGraphListNamespacesOperation
          ? string[][]
          : never;
};
