import type { StoreError } from '../spec/errors.js';
import { closedStoreError } from './closed-state.js';
import { TransactionScope } from './transaction-scope.js';
import { WriteQueue } from './write-queue.js';

/**
 * Options of {@link createStoreGate}.
 *
 * @group Store kit
 */
export interface StoreGateOptions {
  /** The store's name, for errors. */
  name: string;
  /** What the closed error names; default `name`. */
  where?: string;
  /** What the closed error suggests; default 'Create a new store.'. */
  closedSuggestion?: string;
}

/**
 * How a transaction of {@link StoreGate.transaction} begins and ends on the store's data.
 *
 * @group Store kit
 */
export interface TransactionSteps<C> {
  /** Start it; resolves to what the store keeps for it (an undo log, say), handed to the writes inside it. */
  begin(): C | Promise<C>;
  /** Make it durable once `work` resolved. Default: nothing to do. */
  commit?(context: C): void | Promise<void>;
  /** Undo it once `work` (or `commit`) rejected; the rejection is passed on after. Default: nothing to undo. */
  rollback?(context: C, error: unknown): void | Promise<void>;
}

/**
 * The machinery every store shares, in one object: writes serialised in a {@link WriteQueue},
 * transactions that refuse to nest and whose own calls are not queued behind them, and the
 * closed state (calls after `close()` reject with a StoreError; `close()` waits for the writes
 * already queued, and is harmless twice). `C` is what the store keeps per transaction.
 *
 * @group Store kit
 */
export interface StoreGate<C = true> {
  /** True once `close()` has finished. */
  readonly closed: boolean;
  /** The running transaction's context when called from inside one, else undefined. */
  current(): C | undefined;
  /** The StoreError a call on the closed store rejects with. */
  closedError(): StoreError;
  /** Throw the closed error when the store is closed (or closing, outside a running transaction). */
  assertOpen(): void;
  /** Run a read once the store is known to be open. */
  read<R>(operation: () => R | Promise<R>): Promise<R>;
  /**
   * Run a write: at once inside a running transaction (given its context), else behind every
   * write queued before it (given undefined).
   */
  write<R>(operation: (transaction: C | undefined) => R | Promise<R>): Promise<R>;
  /**
   * Run `work` as one transaction: refused when nested, queued behind earlier writes, begun,
   * then committed when `work` resolves or rolled back when it rejects.
   */
  transaction<R>(work: () => Promise<R>, steps: TransactionSteps<C>): Promise<R>;
  /**
   * Close: refuse new calls, wait for the queued writes (not from inside a transaction, which
   * would wait for itself), then run `release` once. Later calls resolve with the first.
   */
  close(release?: () => void | Promise<void>): Promise<void>;
}

/**
 * Make a {@link StoreGate}: with it, a store's methods are its data access wrapped in
 * `gate.read(…)` and `gate.write(…)`, and its `transaction` and `close` are one line each.
 *
 * @example
 * ```ts
 * const gate = createStoreGate({ name: 'my-store' });
 * const put = (records) => gate.write(() => save(records));
 * const transaction = (work) => gate.transaction(work, { begin: () => true });
 * const close = () => gate.close(() => disconnect());
 * ```
 *
 * @group Store kit
 */
export function createStoreGate<C = true>(options: StoreGateOptions): StoreGate<C> {
  const queue = new WriteQueue();
  const scope = new TransactionScope<C>(options.name);
  let closing = false;
  let closed = false;
  let closing$: Promise<void> | undefined;
  const closedError = () =>
    closedStoreError(options.where ?? options.name, {
      component: options.name,
      ...(options.closedSuggestion ? { suggestion: options.closedSuggestion } : {}),
    });
  const assertOpen = () => {
    if (closed || (closing && !scope.inside)) throw closedError();
  };
  return {
    get closed() {
      return closed;
    },
    current: () => scope.current(),
    closedError,
    assertOpen,
    async read(operation) {
      assertOpen();
      return operation();
    },
    async write(operation) {
      assertOpen();
      const transaction = scope.current();
      if (transaction !== undefined) return operation(transaction);
      return queue.run(() => {
        if (closed) throw closedError();
        return operation(undefined);
      });
    },
    async transaction(work, steps) {
      assertOpen();
      scope.refuseNested();
      return queue.run(async () => {
        if (closed) throw closedError();
        const context = await steps.begin();
        try {
          const result = await scope.run(context, work);
          await steps.commit?.(context);
          return result;
        } catch (error) {
          await steps.rollback?.(context, error);
          throw error;
        }
      });
    },
    close(release) {
      closing$ ??= (async () => {
        closing = true;
        if (!scope.inside) await queue.idle();
        closed = true;
        await release?.();
      })();
      return closing$;
    },
  };
}
