import { StoreError } from '../spec/errors.js';
import type { CrossProcessGuarantee, MemoryStore, OptionalStoreMember, TransactionGuarantee } from '../spec/store.js';

/**
 * What a store offers and guarantees, resolved: the optional natives by their presence, the
 * guarantees as declared (absent ones as their weakest value; `transactions` is `none` for a
 * store without `transaction()`, whatever it declares). Shown by `doctor()` and `stats()`.
 *
 * @group Backups and maintenance
 */
export interface ResolvedStoreCapabilities {
  /** The store has `searchLexical` (else memoir ranks with BM25 over a scan). */
  lexicalSearch: boolean;
  /** The store has `searchVector` (else memoir scans the embeddings). */
  vectorSearch: boolean;
  /** Data survives `close()` and a new process. */
  persistent: boolean;
  /** How far one transaction hangs together. */
  transactions: TransactionGuarantee;
  /** What holds between processes opening the same data. */
  crossProcess: CrossProcessGuarantee;
  /** The store has `stageChange`: bulk changes are staged and switched in by one crash-safe commit. */
  stagedChanges: boolean;
  /** The optional port members the store lacks, which memoir derives, replaces with a slower fallback or refuses. */
  missing: string[];
}

/** Every optional member of the port, by name. */
const OPTIONAL_MEMBERS: readonly OptionalStoreMember[] = [
  'searchLexical',
  'searchVector',
  'transaction',
  'stageChange',
  'count',
  'listUnembedded',
  'recordAccess',
  'stats',
  'resetEmbeddings',
  'recordedEmbedder',
  'check',
];

const TRANSACTION_GUARANTEES: readonly string[] = ['atomic', 'per-table', 'none'];
const CROSS_PROCESS_GUARANTEES: readonly string[] = ['serialised', 'per-write', 'none'];

/** True when the store has the optional member `member`: presence is all memoir asks. */
export function hasNative(store: MemoryStore, member: OptionalStoreMember): boolean {
  return typeof store[member] === 'function';
}

/**
 * How far the store's transactions hang together: as declared when it has `transaction()`,
 * `none` without it (memoir then only serialises its writes).
 */
export function transactionGuarantee(store: MemoryStore): TransactionGuarantee {
  const declared = store.capabilities.transactions;
  if (!hasNative(store, 'transaction') || declared === undefined) return 'none';
  return TRANSACTION_GUARANTEES.includes(declared) ? declared : 'none';
}

/** What the store guarantees between processes, as declared (see {@link CrossProcessGuarantee}). */
export function crossProcessGuarantee(store: MemoryStore): CrossProcessGuarantee {
  const declared = store.capabilities.crossProcess;
  return declared !== undefined && CROSS_PROCESS_GUARANTEES.includes(declared) ? declared : 'none';
}

/** True when the store stages bulk changes: it has `stageChange`. */
export function stagesChanges(store: MemoryStore): boolean {
  return hasNative(store, 'stageChange');
}

/** Every capability of the store, resolved (see {@link ResolvedStoreCapabilities}). */
export function resolveCapabilities(store: MemoryStore): ResolvedStoreCapabilities {
  return {
    lexicalSearch: hasNative(store, 'searchLexical'),
    vectorSearch: hasNative(store, 'searchVector'),
    persistent: store.capabilities.persistent === true,
    transactions: transactionGuarantee(store),
    crossProcess: crossProcessGuarantee(store),
    stagedChanges: stagesChanges(store),
    missing: OPTIONAL_MEMBERS.filter((member) => !hasNative(store, member)),
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
    `${operation} needs a store with a transaction() undone on failure (capabilities.transactions 'atomic' or 'per-table') or a stageChange(); the ${store.name} store has ${hasNative(store, 'transaction') ? "transactions 'none'" : 'neither'}`,
    {
      component: store.name,
      suggestion:
        'Use a store with atomic transactions (sqlite, in-memory) or staged changes (lancedb), or give this store a transaction() that undoes its writes on failure and declare it.',
    },
  );
}
