import { EventEmitter } from 'eventemitter3';
import type { MemoirEvents } from '../engine/events.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { narrowScope } from '../search/scope-boundary.js';
import { StoreError, ValidationError } from '../spec/errors.js';
import { type Scope, tenantScopeSchema } from '../spec/memory.js';
import { parseInput } from '../utils/validate.js';

// A view is the client's engine seen from one scope. The features read the scope they act in
// from `engine.scope` (that is where a scoped client's boundary is enforced), so a view is the
// same engine with another `scope`: the store, embedder, queue, caches, drain and close are the
// parent's; the scope, the session state, the listeners and the view's own "closed" are not.

const COMPONENT = 'withScope';

/**
 * The scope a view is held in: the argument, checked like createMemory's `scope` (it must name
 * someone), added to the parent's scope. A field the parent fixes may be repeated, not changed:
 * a view narrows its client, it never reaches another tenant.
 */
export function viewScope(parent: Scope | undefined, input: unknown): Scope {
  const asked = parseInput(tenantScopeSchema, input, COMPONENT, 'scope');
  const scope = narrowScope(parent, asked);
  if (scope === null || scope === undefined) {
    const clash = (['userId', 'agentId', 'namespace'] as const).find(
      (field) => parent?.[field] !== undefined && asked[field] !== undefined && parent[field] !== asked[field],
    );
    throw new ValidationError(
      [
        {
          field: `scope.${clash ?? 'userId'}`,
          message: `expected "${parent?.[clash ?? 'userId']}", the client's own ${clash ?? 'userId'} (got "${asked[clash ?? 'userId']}")`,
        },
      ],
      {
        component: COMPONENT,
        suggestion:
          'A view only narrows the client it is made from: add fields to its scope, or make the view from a client whose scope holds this one (the unscoped client holds every scope).',
      },
    );
  }
  return { ...scope };
}

/** The engine a view's features run on, and how the view is closed. */
export interface ViewEngine {
  /** The parent's engine held in the view's scope. */
  readonly engine: MemoryEngine;
  /** Refuse new calls through the view and wait for the ones it started; the parent stays open. */
  close(): Promise<void>;
}

function viewClosedError(component: string): StoreError {
  return new StoreError('this scope view is closed', {
    component,
    suggestion: 'Make a new view with memory.withScope(scope); the client it came from is still open.',
  });
}

/**
 * `parent` seen from `scope`: every member is the parent's but the scope, a session state of
 * its own (starting where the parent's is), listeners of its own (what the view's calls emit
 * reaches them and then the parent's, as an admin hears every scope), and a gate of its own so
 * that closing the view refuses calls through it while the parent and its other views go on.
 */
export function createViewEngine(parent: MemoryEngine, scope: Scope): ViewEngine {
  const events = new EventEmitter<MemoirEvents>();
  const inFlight = new Set<Promise<unknown>>();
  const closeHooks: Array<() => void> = [];
  let closing = false;
  let closingDone: Promise<void> = Promise.resolve();

  const own: Partial<Record<keyof MemoryEngine, PropertyDescriptor>> = {
    scope: { value: scope, enumerable: true },
    session: { value: { current: parent.session.current, resumed: parent.session.resumed }, enumerable: true },
    events: { value: events, enumerable: true },
    closed: { get: () => closing || parent.closed, enumerable: true },
    emit: {
      value<E extends keyof MemoirEvents>(event: E, ...args: Parameters<MemoirEvents[E]>): void {
        try {
          (events.emit as (name: E, ...rest: typeof args) => boolean)(event, ...args);
        } catch (error) {
          // As the engine does: a listener's bug must not fail the call that emitted.
          parent.logger.log('error', `listener for ${event} threw`, { error: String(error) });
        }
        parent.emit(event, ...args);
      },
    },
    assertOpen: {
      value(component: string): void {
        if (closing) throw viewClosedError(component);
        parent.assertOpen(component);
      },
    },
    track: {
      value<T>(component: string, call: () => Promise<T>): Promise<T> {
        if (closing) return Promise.reject(viewClosedError(component));
        const running = parent.track(component, call);
        const settled = running.then(
          () => undefined,
          () => undefined,
        );
        inFlight.add(settled);
        void settled.then(() => inFlight.delete(settled));
        return running;
      },
    },
    // The parent's own open hooks already cover what a view would add (they run once, on the
    // first open, over a scope that holds the view's); hooks kept here would only pile up.
    onOpen: { value: () => undefined },
    // A watcher a view starts stops with the view, or with the parent if that closes first.
    onClose: {
      value(hook: () => void): void {
        let done = false;
        const once = () => {
          if (done) return;
          done = true;
          hook();
        };
        closeHooks.push(once);
        parent.onClose(once);
      },
    },
  };
  const engine = Object.create(parent, own as PropertyDescriptorMap) as MemoryEngine;

  return {
    engine,
    async close() {
      if (closing) return closingDone;
      closing = true;
      closingDone = (async () => {
        for (const hook of closeHooks) hook();
        while (inFlight.size > 0) await Promise.all([...inFlight]);
        events.removeAllListeners();
      })();
      return closingDone;
    },
  };
}
