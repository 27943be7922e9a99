import { BaseStore } from '@langchain/langgraph';
import { z } from 'zod';
import { isPlainObject, metadataSchema, scopeSchema } from '../../core/spec/memory.js';
import { toValidationIssues } from '../../core/utils/validate.js';
import { createMemory } from '../../create-memory.js';
import type { JsonValue, Memory, MemoryClient, Metadata, Scope } from '../../index.js';
import { NotFoundError, ValidationError } from '../../index.js';
import {
  hasPrefix,
  itemId,
  itemScope,
  matchesCondition,
  namespaceScope,
  sameScope,
  scopeClash,
  scopeLabelIndex,
} from './langgraph-namespace.js';
import { COMPONENT, MAX_LIMIT, type ParsedOperation, parseOperation, parseOperations } from './langgraph-operations.js';
import { type MemoirStoreOptions, parseStoreOptions } from './langgraph-options.js';
import type {
  LangGraphItem,
  LangGraphOperation,
  LangGraphOperationResults,
  LangGraphSearchItem,
} from './langgraph-types.js';
import { matchesFilter, searchableText } from './langgraph-value.js';

/** The category of every memory that holds a LangGraph item. */
export const LANGGRAPH_CATEGORY = 'langgraph';

// Recall ranks at most this many matches; the rest of a query search follows unranked.
const MAX_RANKED = 1000;
const PAGE = 1000;
// The text memoir indexes is an index of the value (kept whole in metadata), so it is capped.
const MAX_TEXT = 1_000_000;

type PutOperation = Extract<ParsedOperation, { kind: 'put' }>;
type SearchOperation = Extract<ParsedOperation, { kind: 'search' }>;
type ListOperation = Extract<ParsedOperation, { kind: 'list' }>;

/** What a memory's metadata holds for its item. */
const storedItemSchema = z.object({
  namespace: z.array(z.string()),
  key: z.string(),
  value: z.record(z.string(), z.unknown()),
  searchable: z.boolean(),
});

interface StoredItem {
  id: string;
  item: LangGraphItem;
  searchable: boolean;
}

/** A write, checked before anything in its batch runs. */
type PreparedWrite =
  | { kind: 'delete'; id: string }
  | { kind: 'put'; id: string; named: Scope; content: string; metadata: Metadata };

const scopeIsEmpty = (scope: Scope) => Object.values(scope).every((value) => value === undefined);

/**
 * A LangGraph store (`BaseStore`) backed by memoir: compile a graph with it and its nodes'
 * `store.put` / `get` / `search` / `delete` / `listNamespaces` land in memoir, where recall
 * ranks them, backups keep them and scopes separate them.
 *
 * Each item is one memoir memory (category `langgraph`): its namespace, key and value are kept
 * whole in the memory's metadata, its text is what recall searches. Namespaces map onto memoir's
 * scope: a leading `["users", id]` is the memoir user `id`, `["agents", id]` the agent `id`;
 * any other label is a path inside the store's own scope (its client's). A store over a scoped
 * client reads and lists only that scope, and refuses to write into a namespace of another
 * user or agent. See docs/guides/langgraph.md for the mapping and for where the store differs
 * from LangGraph's `InMemoryStore`.
 *
 * `@langchain/langgraph` and `@langchain/core` are optional peers: install them to use this entry.
 *
 * @example
 * ```ts
 * import { StateGraph, MessagesAnnotation, type LangGraphRunnableConfig } from '@langchain/langgraph';
 * import { createMemory } from 'memoir';
 * import { MemoirStore } from 'memoir/langgraph';
 *
 * const store = new MemoirStore({ memory: createMemory() });
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode('remember', async (state, config: LangGraphRunnableConfig) => {
 *     const userId = config.configurable?.userId as string;
 *     await config.store?.put(['users', userId, 'facts'], 'diet', { text: 'Vegetarian since 2020.' });
 *     const found = await config.store?.search(['users', userId, 'facts'], { query: 'what does the user eat?' });
 *     return { messages: [] };
 *   })
 *   .addEdge('__start__', 'remember')
 *   .compile({ store });
 * ```
 * @group LangGraph
 */
export class MemoirStore {
  // An instance of LangGraph's BaseStore at run time (`instanceof BaseStore`, its prototype's
  // members), while the declarations memoir ships name no type of the optional peer: the class
  // declares every member BaseStore has, and the type test checks it is assignable to BaseStore.
  static {
    Object.setPrototypeOf(MemoirStore.prototype, BaseStore.prototype);
    Object.setPrototypeOf(MemoirStore, BaseStore);
  }

  /** The memoir client the items live in: recall, list or back them up through it too. */
  readonly memory: MemoryClient;
  readonly #scope: Scope;
  readonly #fields: string[] | undefined;
  readonly #ownsClient: boolean;
  // Operations run one batch at a time, so a put's "is it there yet?" is never raced by another.
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * A store over `options.memory`, or over the SQLite home `options.home` (default: the
   * configured home, as the `memoir` command opens it). Bad options are a ValidationError.
   */
  constructor(options?: MemoirStoreOptions) {
    const parsed = parseStoreOptions(options);
    this.#fields = parsed.index?.fields;
    if (parsed.memory) {
      this.memory = parsed.memory;
      this.#ownsClient = false;
    } else {
      this.memory = createMemory({
        ...(parsed.home === undefined ? {} : { home: parsed.home }),
        ...(parsed.scope === undefined ? {} : { scope: parsed.scope }),
      });
      this.#ownsClient = true;
    }
    const own = this.memory.scope ?? {};
    this.#scope = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined)) as Scope;
  }

  /**
   * Run operations and resolve to one result per operation, in order. Reads (get, search,
   * listNamespaces) see the store as it was before the batch; then its puts and deletes apply in
   * order (the last put of an item wins), as LangGraph's in-memory store does. A bad operation
   * is a ValidationError naming it (`operations[2].namespace[1]`), and then nothing runs.
   */
  batch<Op extends LangGraphOperation[]>(operations: Op): Promise<LangGraphOperationResults<Op>> {
    return this.#serial(async () => {
      const parsed = parseOperations(operations);
      return (await this.#execute(parsed, (index) => `operations[${index}]`)) as LangGraphOperationResults<Op>;
    });
  }

  /** The item at `namespace` and `key`, or null. */
  async get(namespace: string[], key: string): Promise<LangGraphItem | null> {
    const [item] = await this.#single({ namespace, key });
    return item as LangGraphItem | null;
  }

  /**
   * Items under `namespacePrefix`: with `query`, memoir's recall ranks the matches first (with
   * their `score`), then the other items follow; without, most recently updated first.
   * `filter` matches the values' fields; `limit` (default 10) and `offset` page the result.
   */
  async search(
    namespacePrefix: string[],
    options: { filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string } = {},
  ): Promise<LangGraphSearchItem[]> {
    const [items] = await this.#single({ namespacePrefix, ...withoutUndefinedFields(optionsArgument(options)) });
    return items as LangGraphSearchItem[];
  }

  /** Store `value` at `namespace` and `key`, replacing what was there (its `createdAt` is kept). */
  async put(namespace: string[], key: string, value: Record<string, unknown>, index?: false | string[]): Promise<void> {
    await this.#single({ namespace, key, value, ...(index === undefined ? {} : { index }) });
  }

  /** Delete the item at `namespace` and `key` (nothing happens when there is none). */
  async delete(namespace: string[], key: string): Promise<void> {
    await this.#single({ namespace, key, value: null });
  }

  /**
   * The namespaces that hold items, sorted: only those starting with `prefix` and ending with
   * `suffix` (`"*"` matches any label), cut to `maxDepth` labels; `limit` (default 100) and `offset` page them.
   */
  async listNamespaces(
    options: { prefix?: string[]; suffix?: string[]; maxDepth?: number; limit?: number; offset?: number } = {},
  ): Promise<string[][]> {
    const { prefix, suffix, maxDepth, limit = 100, offset = 0 } = optionsArgument(options) as typeof options;
    const matchConditions = [
      ...(prefix ? [{ matchType: 'prefix' as const, path: prefix }] : []),
      ...(suffix ? [{ matchType: 'suffix' as const, path: suffix }] : []),
    ];
    const [namespaces] = await this.#single({
      ...(matchConditions.length > 0 ? { matchConditions } : {}),
      ...(maxDepth === undefined ? {} : { maxDepth }),
      limit,
      offset,
    });
    return namespaces as string[][];
  }

  /** Nothing to start: the client opens its store on first use. */
  start(): void {}

  /** Wait for running operations; then close the client if the store opened it (`home`), never one you passed. */
  async stop(): Promise<void> {
    await this.#queue.catch(() => undefined);
    if (this.#ownsClient) await this.memory.close();
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #single(operation: Record<string, unknown>): Promise<unknown[]> {
    return this.#serial(() => this.#execute([parseOperation(operation, '')], () => ''));
  }

  async #execute(operations: ParsedOperation[], fieldOf: (index: number) => string): Promise<unknown[]> {
    const writes = operations.map((operation, index) =>
      operation.kind === 'put' ? this.#prepareWrite(operation, fieldOf(index)) : undefined,
    );
    const results: unknown[] = [];
    for (const operation of operations) {
      if (operation.kind === 'get') results.push(await this.#get(operation.namespace, operation.key));
      else if (operation.kind === 'search') results.push(await this.#search(operation));
      else if (operation.kind === 'list') results.push(await this.#listNamespaces(operation));
      else results.push(null);
    }
    for (const write of writes) if (write) await this.#write(write);
    return results;
  }

  #field(prefix: string, name: string): string {
    return prefix ? `${prefix}.${name}` : name;
  }

  #prepareWrite(operation: PutOperation, prefix: string): PreparedWrite {
    const { namespace, key, value } = operation;
    const named = namespaceScope(namespace);
    const clash = scopeClash(this.#scope, named);
    if (clash !== undefined) {
      throw new ValidationError(
        [
          {
            field: this.#field(prefix, `namespace[${scopeLabelIndex(namespace, clash)}]`),
            message: `expected "${this.#scope[clash]}", the store's own ${clash} (got "${named[clash]}")`,
          },
        ],
        {
          component: COMPONENT,
          suggestion: "A store over a scoped client writes only inside its scope; use that scope's namespace.",
        },
      );
    }
    const namedCheck = scopeSchema.safeParse(named);
    if (!namedCheck.success) {
      const field = namedCheck.error.issues[0]?.path[0] as keyof Scope;
      throw new ValidationError(
        [
          {
            field: this.#field(prefix, `namespace[${scopeLabelIndex(namespace, field)}]`),
            message: `expected a ${field} of at most 256 characters of well-formed text`,
          },
        ],
        { component: COMPONENT },
      );
    }
    const id = itemId(itemScope(this.#scope, namespace), namespace, key);
    if (value === null) return { kind: 'delete', id };
    const fields = operation.index === false ? [] : (operation.index ?? this.#fields);
    const text = searchableText(value as Record<string, JsonValue>, fields).slice(0, MAX_TEXT);
    const searchable = operation.index !== false && text !== '';
    const stored = { manual_save: true, langgraph: { namespace, key, value, searchable } };
    const checked = metadataSchema.safeParse(stored);
    if (!checked.success) {
      const valueField = this.#field(prefix, 'value');
      const issues = toValidationIssues(checked.error, stored, '').map((issue) => ({
        field: issue.field.replace(/^langgraph\.value/, valueField),
        message: issue.message,
      }));
      throw new ValidationError(issues, {
        component: COMPONENT,
        suggestion: 'Store JSON: strings, finite numbers, booleans, null, arrays and plain objects.',
      });
    }
    // The text recall searches; an item with none is found by its address.
    const content = searchable ? text : [...namespace, key].join('/') || key || 'item';
    return { kind: 'put', id, named, content, metadata: checked.data };
  }

  async #write(write: PreparedWrite): Promise<void> {
    if (write.kind === 'delete') {
      await this.memory.forget(write.id);
      return;
    }
    const existing = await this.#memory(write.id);
    if (existing) {
      await this.memory.update(write.id, {
        content: write.content,
        category: LANGGRAPH_CATEGORY,
        metadata: write.metadata,
      });
      return;
    }
    await this.memory.retain(
      {
        id: write.id,
        content: write.content,
        kind: 'world',
        category: LANGGRAPH_CATEGORY,
        metadata: write.metadata,
        ...(scopeIsEmpty(write.named) ? {} : { scope: write.named }),
      },
      // An item is a value at an address: never merged with an equal one, never superseding another.
      { onDuplicate: 'keep', corrections: 'marked' },
    );
  }

  async #memory(id: string): Promise<Memory | undefined> {
    try {
      return await this.memory.get(id);
    } catch (error) {
      if (NotFoundError.isInstance(error)) return undefined;
      throw error;
    }
  }

  /** The item a memory holds, when it is one this store sees. */
  #itemOf(memory: Memory): StoredItem | undefined {
    if (memory.category !== LANGGRAPH_CATEGORY) return undefined;
    const parsed = storedItemSchema.safeParse(memory.metadata.langgraph);
    if (!parsed.success) return undefined;
    const { namespace, key, value, searchable } = parsed.data;
    if (!sameScope(memory.scope, itemScope(this.#scope, namespace))) return undefined;
    if (memory.id !== itemId(memory.scope, namespace, key)) return undefined;
    return {
      id: memory.id,
      searchable,
      item: { namespace, key, value, createdAt: new Date(memory.createdAt), updatedAt: new Date(memory.updatedAt) },
    };
  }

  async #get(namespace: string[], key: string): Promise<LangGraphItem | null> {
    if (scopeClash(this.#scope, namespaceScope(namespace)) !== undefined) return null;
    const memory = await this.#memory(itemId(itemScope(this.#scope, namespace), namespace, key));
    return (memory && this.#itemOf(memory)?.item) ?? null;
  }

  /** The scope a read of `labels` narrows memoir's own filter to, or null when it names another tenant. */
  #readScope(labels: readonly string[]): Scope | undefined | null {
    const named = namespaceScope(labels);
    if (scopeClash(this.#scope, named) !== undefined) return null;
    return scopeIsEmpty(named) ? undefined : named;
  }

  /** Every item in `scope` this store sees that `keep` accepts, most recently updated first. */
  async #items(scope: Scope | undefined, keep: (item: StoredItem) => boolean): Promise<StoredItem[]> {
    const found: StoredItem[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.memory.list({
        categories: [LANGGRAPH_CATEGORY],
        ...(scope ? { scope } : {}),
        orderBy: 'updatedAt',
        direction: 'desc',
        limit: PAGE,
        offset,
      });
      for (const memory of page) {
        const item = this.#itemOf(memory);
        if (item && keep(item)) found.push(item);
      }
      if (page.length < PAGE) return found;
    }
  }

  async #search(operation: SearchOperation): Promise<LangGraphSearchItem[]> {
    const { namespacePrefix, filter, limit, offset } = operation;
    const scope = this.#readScope(namespacePrefix);
    if (scope === null || limit === 0) return [];
    const keep = (stored: StoredItem) =>
      hasPrefix(stored.item.namespace, namespacePrefix) && matchesFilter(stored.item.value, filter);
    const items = await this.#items(scope, keep);
    const query = operation.query?.trim();
    if (!query) return items.slice(offset, offset + limit).map(({ item }) => ({ ...item, score: undefined }));

    const response = await this.memory.recall(query, {
      k: Math.min(MAX_RANKED, Math.max(1, offset + limit)),
      categories: [LANGGRAPH_CATEGORY],
      ...(scope ? { scope } : {}),
      intent: 'lexical',
      includeInvalid: true,
      core: false,
    });
    const ranked: LangGraphSearchItem[] = [];
    const seen = new Set<string>();
    for (const result of response.results) {
      const stored = this.#itemOf(result.memory);
      if (!stored?.searchable || seen.has(stored.id) || !keep(stored)) continue;
      seen.add(stored.id);
      ranked.push({ ...stored.item, score: result.score });
    }
    const rest = items.filter((stored) => !seen.has(stored.id)).map(({ item }) => ({ ...item, score: undefined }));
    return [...ranked, ...rest].slice(offset, offset + limit);
  }

  async #listNamespaces(operation: ListOperation): Promise<string[][]> {
    const conditions = operation.matchConditions ?? [];
    // A prefix without wildcards in its scope labels narrows memoir's own filter.
    let scope: Scope | undefined;
    for (const condition of conditions) {
      if (condition.matchType !== 'prefix') continue;
      const end = condition.path.indexOf('*');
      const narrowed = this.#readScope(end === -1 ? condition.path : condition.path.slice(0, end));
      if (narrowed === null) return [];
      scope ??= narrowed;
    }
    const items = await this.#items(scope, (stored) =>
      conditions.every((condition) => matchesCondition(stored.item.namespace, condition)),
    );
    const distinct = new Map<string, string[]>();
    for (const { item } of items) {
      const namespace = operation.maxDepth === undefined ? item.namespace : item.namespace.slice(0, operation.maxDepth);
      distinct.set(JSON.stringify(namespace), namespace);
    }
    // Sorted as LangGraph's in-memory store sorts them: by the labels joined with ":".
    const sorted = [...distinct.values()].sort((a, b) => a.join(':').localeCompare(b.join(':')));
    return sorted.slice(operation.offset, operation.offset + Math.min(operation.limit, MAX_LIMIT));
  }
}

function withoutUndefinedFields(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/** The options argument of a method, checked before it is read: absent is `{}`, anything but an object is refused. */
function optionsArgument(options: unknown): Record<string, unknown> {
  if (options === undefined) return {};
  if (isPlainObject(options)) return options;
  throw new ValidationError([{ field: 'options', message: 'expected an object of options' }], {
    component: COMPONENT,
  });
}
