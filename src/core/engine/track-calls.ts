import type { MemoryEngine } from './memory-engine.js';

type AsyncMethods<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];

/**
 * Route the named async methods of a feature slice through `engine.track`, so that
 * `close()` lets calls already started finish and refuses new ones.
 */
export function trackCalls<T extends object>(engine: MemoryEngine, api: T, methods: readonly AsyncMethods<T>[]): T {
  const wrapped = { ...api } as Record<PropertyKey, unknown>;
  for (const name of methods) {
    const method = api[name] as unknown as (...args: unknown[]) => Promise<unknown>;
    wrapped[name] = (...args: unknown[]) => engine.track(String(name), () => method(...args));
  }
  return wrapped as T;
}
