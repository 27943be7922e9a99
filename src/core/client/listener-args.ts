import { MEMOIR_EVENT_NAMES, type MemoirEvents } from '../engine/events.js';
import { ValidationError } from '../spec/errors.js';

const KNOWN: ReadonlySet<unknown> = new Set(MEMOIR_EVENT_NAMES);

/**
 * Check the arguments of `on`/`once`/`off`: the event must be one a client emits and the
 * listener a function. A mistake here is the caller's, so it is a ValidationError naming the
 * field, not the emitter's TypeError (nor, for a misspelt name, a listener that never fires).
 */
export function checkListenerArgs(method: 'on' | 'once' | 'off', event: unknown, listener: unknown): void {
  if (!KNOWN.has(event)) {
    const got =
      typeof event === 'string' ? JSON.stringify(event) : typeof event === 'symbol' ? 'a symbol' : String(event);
    throw new ValidationError(
      [{ field: 'event', message: `expected one of ${MEMOIR_EVENT_NAMES.join(', ')} (got ${got})` }],
      { component: method },
    );
  }
  if (typeof listener !== 'function') {
    throw new ValidationError([{ field: 'listener', message: `expected a function (got ${describe(listener)})` }], {
      component: method,
      suggestion: `Pass a function: memory.${method}('${String(event as keyof MemoirEvents)}', (event) => { … }).`,
    });
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}
