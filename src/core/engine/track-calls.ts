import type { MemoryEngine } from './memory-engine.js';

/** A method that answers with a promise: what close() has to wait for. */
type AsyncMethod = (...args: never[]) => Promise<unknown>;

// Methods a feature declared for the drain, the client's wrappers around them, and the two
// members that are the drain itself (flush, close). Weak sets: they mark functions, not names,
// so no list of method names exists anywhere to forget one in.
const declared = new WeakSet<object>();
const wrappers = new WeakSet<object>();
const controls = new WeakSet<object>();

/**
 * The members of an API that answer with a promise: what {@link drained} must be given, all of
 * them (the type checker names one left out) and nothing else.
 */
export type AsyncMembers<T> = { [K in keyof T as T[K] extends AsyncMethod ? K : never]: T[K] };

/**
 * Declare the async methods of a feature slice for the drain, where they are defined: the
 * client routes each through `engine.track` ({@link trackDeclared}), so `close()` lets calls
 * already started finish and refuses new ones. Called as `drained<AsyncMembers<XxxApi>>({ … })`,
 * the type checker requires every async member of the interface here and nothing synchronous;
 * a slice with synchronous members spreads them beside this object.
 *
 * The methods themselves are returned unchanged: a feature handed another feature's slice
 * (procedures and capture call `retain`) calls it inside its own tracked call, and a second,
 * nested gate there would refuse work a call started before close() still has to finish.
 */
export function drained<T extends { [K in keyof T]: AsyncMethod }>(methods: T): T {
  for (const method of Object.values(methods)) declared.add(method as object);
  return methods;
}

/**
 * Mark a member that is part of the drain itself (`flush`, `close`): it answers with a promise
 * but is not refused once the client is closing.
 */
export function drainControl<F extends AsyncMethod>(method: F): F {
  controls.add(method);
  return method;
}

/**
 * A copy of `slice` in which every method declared with {@link drained} (at any depth of plain
 * namespace objects such as `procedures` or `core`) runs through `engine.track` under its
 * path (`retain`, `core.append`); everything else is kept as it is (getters too, unevaluated).
 */
export function trackDeclared<T extends object>(engine: Pick<MemoryEngine, 'track'>, slice: T): T {
  return wrapObject(engine, slice as Record<PropertyKey, unknown>, '') as T;
}

/** True for a client method that runs through the drain ({@link trackDeclared}). */
export function isDrained(method: unknown): boolean {
  return typeof method === 'function' && wrappers.has(method);
}

/** True for a member that is the drain itself ({@link drainControl}). */
export function isDrainControl(method: unknown): boolean {
  return typeof method === 'function' && controls.has(method);
}

function wrapObject(engine: Pick<MemoryEngine, 'track'>, slice: Record<PropertyKey, unknown>, path: string): object {
  const descriptors = Object.getOwnPropertyDescriptors(slice);
  for (const [key, descriptor] of Object.entries(descriptors)) {
    if (!('value' in descriptor)) continue;
    const value = descriptor.value as unknown;
    if (typeof value === 'function' && declared.has(value)) {
      const method = value as (...args: unknown[]) => Promise<unknown>;
      // The component a refusal names: the method as the caller wrote it (`recall`, `procedures.learn`).
      const component = `${path}${key}`;
      const wrapper = (...args: unknown[]) => engine.track(component, () => method(...args));
      wrappers.add(wrapper);
      descriptor.value = wrapper;
    } else if (isNamespace(value) && holdsDeclared(value)) {
      descriptor.value = wrapObject(engine, value, `${path}${key}.`);
    }
  }
  return Object.defineProperties({}, descriptors);
}

/** A plain object grouping methods (`memory.procedures`, `memory.core`): not a class instance such as the store. */
function isNamespace(value: unknown): value is Record<PropertyKey, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function holdsDeclared(value: Record<PropertyKey, unknown>): boolean {
  return Object.values(Object.getOwnPropertyDescriptors(value)).some(
    (descriptor) =>
      'value' in descriptor &&
      ((typeof descriptor.value === 'function' && declared.has(descriptor.value)) ||
        (isNamespace(descriptor.value) && holdsDeclared(descriptor.value))),
  );
}
