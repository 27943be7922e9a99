import { AsyncLocalStorage } from 'node:async_hooks';
import { StoreError } from '../spec/errors.js';

interface Running<C> {
  context: C;
  /** False once the transaction settled: a late call from its async context is then outside it. */
  active: boolean;
}

/**
 * Which transaction the current call belongs to, carried through the async calls `work`
 * makes, and the guard that refuses a nested one. `C` is what the store keeps per transaction
 * (an undo log, a connection…).
 *
 * @group Store kit
 */
export class TransactionScope<C = true> {
  readonly #storage = new AsyncLocalStorage<Running<C>>();

  constructor(
    /** The store's name, for the nesting error. */
    readonly component: string,
  ) {}

  /** The running transaction's context when called from inside it, else undefined. */
  current(): C | undefined {
    const running = this.#storage.getStore();
    return running?.active ? running.context : undefined;
  }

  /** True when called from inside a running transaction of this store. */
  get inside(): boolean {
    return this.#storage.getStore()?.active === true;
  }

  /** Throw the nesting StoreError when called from inside a running transaction. */
  refuseNested(): void {
    if (!this.inside) return;
    throw new StoreError('transaction() was called inside a running transaction; transactions do not nest', {
      component: this.component,
      suggestion: 'Make the writes directly inside the outer transaction.',
    });
  }

  /** Run `work` inside a transaction with `context`; once it settles, its async context is outside. */
  async run<T>(context: C, work: () => Promise<T>): Promise<T> {
    const running: Running<C> = { context, active: true };
    try {
      return await this.#storage.run(running, work);
    } finally {
      running.active = false;
    }
  }

  /** Run `work` outside any transaction (background work started from inside one). */
  exit<T>(work: () => T): T {
    return this.#storage.exit(work);
  }
}
