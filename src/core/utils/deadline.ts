// Time bounds for calls to providers (embedders, chat models) that may hang: a deadline
// signal that joins a timer to the caller's signal, a race that settles when it fires even
// if the call ignores signals, and a sleep that wakes on abort.

/** Why a {@link Deadline}'s signal aborted. */
export type DeadlineCause = 'timeout' | 'parent' | 'abort';

/** A timer and an optional parent signal joined into one signal. */
export interface Deadline {
  /** Aborts when the time is up, the parent aborts, or {@link Deadline.abort} is called. */
  readonly signal: AbortSignal;
  /** What aborted the signal; undefined while it has not. */
  readonly cause: DeadlineCause | undefined;
  /** Milliseconds left before the timer fires (0 once it has). */
  remaining(): number;
  /** Abort now, with `reason`. */
  abort(reason: unknown): void;
  /** Stop the timer and let go of the parent; call once the work is settled. */
  dispose(): void;
}

/**
 * Start a deadline of `ms` milliseconds, aborted early when `parent` aborts. The timer is
 * not unref'd on purpose: a call racing a provider that never settles must still end.
 * One listener is added to `parent` and removed by `dispose()`, so a long-lived parent does
 * not collect listeners (unlike `AbortSignal.any` on Node 20).
 */
export function startDeadline(ms: number, parent?: AbortSignal, timeoutReason?: () => unknown): Deadline {
  const controller = new AbortController();
  const endsAt = performance.now() + ms;
  let cause: DeadlineCause | undefined;
  const fire = (why: DeadlineCause, reason: unknown) => {
    if (controller.signal.aborted) return;
    cause = why;
    controller.abort(reason);
  };
  const timer = setTimeout(
    () => fire('timeout', timeoutReason?.() ?? new DOMException(`no answer within ${ms} ms`, 'TimeoutError')),
    ms,
  );
  const onParentAbort = () => fire('parent', parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get cause() {
      return cause;
    },
    remaining: () => (cause === 'timeout' ? 0 : Math.max(0, endsAt - performance.now())),
    abort: (reason) => fire('abort', reason),
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/**
 * Settle with `work`, or reject with the signal's reason as soon as it aborts, whichever is
 * first: a port that ignores its signal cannot hold the caller past the deadline. A late
 * rejection of `work` is swallowed (it has nobody left to tell).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Wait `ms` milliseconds; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
