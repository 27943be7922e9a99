import { AsyncLocalStorage } from 'node:async_hooks';

// LanceDB handles (connections, tables, and the query and merge builders made from a table)
// must not be closed while a call on them is running. LanceDB 0.37.1 lets the close through
// and fails the running call ("Table … is closed"); 0.38 and later (napi-rs 3, which checks
// Rust's borrow rules at the JavaScript boundary) refuse the close itself, synchronously:
// "The same native value cannot be borrowed mutably while another borrow is active".
//
// Calls that overlap on one handle are another matter: measured on 0.39.0 (400 mixed calls at
// once on one table — counts, adds, merges, updates, deletes, queries, index listing and stats,
// optimize — and on its connection), none is refused, and 0.37.1 the same. Two things borrow a
// handle mutably: `close()`, and reading a table's `name` (a native field, whose getter napi-rs
// 3 borrows mutably, so `table.name` throws while a count or a write on that table runs). So
// calls are not serialised (that would queue every count and search behind a minutes-long index
// build, and slow 0.37.1 for nothing): a handle's `close()` is put off until its calls have
// settled, and a table's name is read once, when the gate first sees the table (no call can be
// running on it yet), and answered from there.
//
// The gate does this for every handle it has seen, without the code that uses the handles
// knowing: `track()` wraps a connection in a proxy whose tables (what its promises resolve to)
// and builders (what its methods return) are wrapped the same way, each call's promise counted
// against the handle it came from.

/** The message LanceDB 0.38+ gives when a handle is closed while a call on it is running. */
const BORROW_CONFLICT = /cannot be borrowed mutably|another borrow is active/i;

/** Whether `error` is LanceDB 0.38+ refusing a mutable borrow (a close during a call). */
export function isBorrowConflict(error: unknown): boolean {
  return BORROW_CONFLICT.test(error instanceof Error ? error.message : String(error));
}

/** What the gate knows about one handle and the builders made from it. */
interface HandleState {
  /** Calls on it (and on its builders) not settled yet. */
  readonly calls: Set<Promise<unknown>>;
  /** Its deferred close, once asked for. */
  closing: Promise<void> | undefined;
  /** A table's name, read when the gate first saw it (see the top of this file). */
  name: unknown;
}

/** A table's name, or undefined for a handle without one (a connection). */
function readName(handle: object): unknown {
  try {
    return 'name' in handle ? Reflect.get(handle, 'name', handle) : undefined;
  } catch {
    return undefined;
  }
}

/** What the gate does with a deferred close that fails. */
export interface LanceCallGateOptions {
  /** Told about a close that failed for another reason than the handle being closed already. */
  onCloseError?: (error: unknown) => void;
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** A connection or a table: something with `close()` and `isOpen()` of its own. */
const isHandle = (value: unknown): value is object =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { close?: unknown }).close === 'function' &&
  typeof (value as { isOpen?: unknown }).isOpen === 'function';

/** A second close after this many tries at a handle still borrowed by a call the gate did not see. */
const CLOSE_RETRIES = 50;
const CLOSE_RETRY_MS = 20;

/**
 * Counts the calls in flight on LanceDB handles and closes a handle only once none is running
 * on it (see the comment at the top of this file).
 */
export class LanceCallGate {
  readonly #options: LanceCallGateOptions;
  readonly #states = new WeakMap<object, HandleState>();
  readonly #closes = new Set<Promise<void>>();

  constructor(options: LanceCallGateOptions = {}) {
    this.#options = options;
  }

  /**
   * `handle` (a connection or a table) behind a proxy that counts each of its calls, and the
   * tables and builders it hands out likewise; its `close()` runs once they have settled.
   * Tracking the same handle twice gives two proxies over one count.
   */
  track<T extends object>(handle: T): T {
    let state = this.#states.get(handle);
    if (!state) {
      state = { calls: new Set(), closing: undefined, name: readName(handle) };
      this.#states.set(handle, state);
    }
    const proxy = this.#wrap(handle, state, true);
    this.#states.set(proxy, state);
    return proxy;
  }

  /** How many calls are running on `handle` (a proxy from `track` or what it wraps). */
  inFlight(handle: object): number {
    return this.#states.get(handle)?.calls.size ?? 0;
  }

  /** Resolves once every close asked for so far has run (each after the calls on its handle). */
  async closed(): Promise<void> {
    while (this.#closes.size > 0) await Promise.all([...this.#closes]);
  }

  #wrap<T extends object>(target: T, state: HandleState, root: boolean): T {
    const gate = this;
    const proxy: T = new Proxy(target, {
      get(object, key) {
        if (root && key === 'name' && state.name !== undefined) return state.name;
        const value: unknown = Reflect.get(object, key, object);
        if (typeof value !== 'function') return value;
        if (root && key === 'close') return () => gate.#closeWhenIdle(state, () => value.call(object));
        return (...args: unknown[]) => {
          const result: unknown = value.apply(object, args);
          // Builders return themselves to chain: keep the chain on the proxy.
          if (result === object) return proxy;
          if (isPromiseLike(result)) return gate.#count(state, result);
          // A builder (a query, a merge) made from this handle: its calls borrow the handle too.
          if (typeof result === 'object' && result !== null && !Array.isArray(result)) {
            return gate.#wrap(result, state, false);
          }
          return result;
        };
      },
    });
    return proxy;
  }

  /** Count `call` against its handle until it settles; a table it resolves to is tracked in turn. */
  #count(state: HandleState, call: PromiseLike<unknown>): Promise<unknown> {
    const counted = Promise.resolve(call).then((value) => (isHandle(value) ? this.track(value) : value));
    state.calls.add(counted);
    const settle = () => state.calls.delete(counted);
    counted.then(settle, settle);
    return counted;
  }

  #closeWhenIdle(state: HandleState, close: () => unknown): void {
    if (state.closing) return;
    const closing = (async () => {
      for (let attempt = 0; ; attempt++) {
        while (state.calls.size > 0) await Promise.allSettled([...state.calls]);
        try {
          close();
          return;
        } catch (error) {
          // Borrowed by a call made around the gate (a handle LanceDB handed out itself):
          // wait for it a little longer.
          if (isBorrowConflict(error) && attempt < CLOSE_RETRIES) {
            await new Promise((resolve) => setTimeout(resolve, CLOSE_RETRY_MS));
            continue;
          }
          this.#options.onCloseError?.(error);
          return;
        }
      }
    })();
    state.closing = closing;
    this.#closes.add(closing);
    void closing.finally(() => this.#closes.delete(closing));
  }
}

/**
 * The store's own calls (reads, writes, transactions) from their start to their end, so
 * `close()` lets every one started before it finish before the handles close — also while one
 * is between two LanceDB calls, where no handle shows it. Calls made inside one are part of it.
 */
export class StoreCallsInFlight {
  readonly #calls = new Set<Promise<unknown>>();
  readonly #inside = new AsyncLocalStorage<true>();

  /** Run `operation` counted as one call. */
  run<R>(operation: () => Promise<R>): Promise<R> {
    if (this.#inside.getStore()) return operation();
    const call = this.#inside.run(true, operation);
    this.#calls.add(call);
    const settle = () => this.#calls.delete(call);
    call.then(settle, settle);
    return call;
  }

  /** Whether the caller runs inside a counted call. */
  get inside(): boolean {
    return this.#inside.getStore() === true;
  }

  /**
   * Run `start` as if outside every counted call: for timers a call sets up, whose later runs
   * are not part of it (and are refused once the store is closing).
   */
  outside<R>(start: () => R): R {
    return this.#inside.exit(start);
  }

  /** Resolves once no counted call is running (those they start included). */
  async settled(): Promise<void> {
    while (this.#calls.size > 0) await Promise.allSettled([...this.#calls]);
  }
}
