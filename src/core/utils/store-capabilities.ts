import { StoreError } from '../spec/errors.js';
import type { CrossProcessGuarantee, MemoryStore, TransactionGuarantee } from '../spec/store.js';

/**
 * What a store declares, every flag resolved: absent flags read as their documented default
 * (the deprecated `durableTransactions` and `multiProcess` only when the new ones are absent),
 * and a search or staging flag counts only when its method is there too. Shown by `doctor()`
 * and `stats()`.
 *
 * @group Backups and maintenance
 */
export interface ResolvedStoreCapabilities {
  /** Lexical search runs in the store (else BM25 over a scan). */
  lexicalSearch: boolean;
  /** Vector search runs in the store (else an exact scan). */
  vectorSearch: boolean;
  /** Data survives `close()` and a new process. */
  persistent: boolean;
  /** How far one transaction hangs together. */
  transactions: TransactionGuarantee;
  /** What holds between processes opening the same data. */
  crossProcess: CrossProcessGuarantee;
  /** Bulk changes are staged and switched in by one crash-safe commit. */
  stagedChanges: boolean;
  /** The optional port members the store lacks, which memoir replaces with a slower fallback or refuses. */
  missing: string[];
}

/** Optional members the core falls back for (or refuses without), by name. */
const OPTIONAL_MEMBERS = [
  'countMemories',
  'recordAccess',
  'resetEmbeddings',
  'stats',
  'listUnembedded',
  'recordedEmbedder',
  'check',
] as const;

/** How far the store's transactions hang together, as declared (see {@link TransactionGuarantee}). */
export function transactionGuarantee(store: MemoryStore): TransactionGuarantee {
  const { transactions, durableTransactions } = store.capabilities;
  if (transactions === 'atomic' || transactions === 'per-table' || transactions === 'none') return transactions;
  return durableTransactions === true ? 'atomic' : 'none';
}

/** What the store guarantees between processes, as declared (see {@link CrossProcessGuarantee}). */
export function crossProcessGuarantee(store: MemoryStore): CrossProcessGuarantee {
  const { crossProcess, multiProcess } = store.capabilities;
  if (crossProcess === 'serialised' || crossProcess === 'per-write' || crossProcess === 'none') return crossProcess;
  return multiProcess === true ? 'per-write' : 'none';
}

/** True when the store stages bulk changes: it declares `stagedChanges` and has `stageChange`. */
export function stagesChanges(store: MemoryStore): boolean {
  return store.capabilities.stagedChanges === true && typeof store.stageChange === 'function';
}

/** Every capability of the store, resolved (see {@link ResolvedStoreCapabilities}). */
export function resolveCapabilities(store: MemoryStore): ResolvedStoreCapabilities {
  const { capabilities } = store;
  return {
    lexicalSearch: capabilities.lexicalSearch === true && typeof store.searchLexical === 'function',
    vectorSearch: capabilities.vectorSearch === true && typeof store.searchVector === 'function',
    persistent: capabilities.persistent === true,
    transactions: transactionGuarantee(store),
    crossProcess: crossProcessGuarantee(store),
    stagedChanges: stagesChanges(store),
    missing: OPTIONAL_MEMBERS.filter((member) => typeof store[member] !== 'function'),
  };
}

/**
 * Refuse `operation` on a store that can apply a bulk change neither staged nor in a
 * transaction undone on failure: its promise (all or nothing) would not hold, and a restore
 * or clear that failed part-way would leave the old data gone and the new half written.
 */
export function assertBulkChangeSafe(store: MemoryStore, operation: string): void {
  if (stagesChanges(store) || transactionGuarantee(store) !== 'none') return;
  throw new StoreError(
    `${operation} needs a store whose transactions are undone on failure (capabilities.transactions 'atomic' or 'per-table') or that stages changes (capabilities.stagedChanges); the ${store.name} store declares transactions 'none'`,
    {
      component: store.name,
      suggestion:
        'Use a store that declares atomic transactions (sqlite, in-memory) or staged changes (lancedb), or give this store a transaction() that undoes its writes on failure and declare it.',
    },
  );
}
