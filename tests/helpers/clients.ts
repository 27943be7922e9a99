import { afterEach } from 'vitest';
import { createInMemoryStore, createMemory, type MemoryClient, type MemoryOptions } from '../../src/index.js';
import { createCounterIds, createFixedClock } from '../../src/testing/index.js';
import { quiet } from './stores.js';

/** The instant the fixed clocks of client tests stand at. */
export const T0 = Date.parse('2025-12-01T12:00:00Z');

/**
 * A client factory for one test file. Each client gets a fresh in-memory store, a clock
 * fixed at {@link T0}, counter ids and a quiet logger, then `defaults` (an object, or a
 * function called per client for parts that must be fresh each time), then the call's
 * own options; every client is closed after each test. Call it at the top of a file.
 */
export function clientsClosedAfterEach(
  defaults: MemoryOptions | (() => MemoryOptions) = {},
): (options?: MemoryOptions) => MemoryClient {
  const clients: MemoryClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((memory) => memory.close()));
  });
  return (options = {}) => {
    const memory = createMemory({
      store: createInMemoryStore(),
      clock: createFixedClock(T0),
      ids: createCounterIds(),
      logger: quiet,
      ...(typeof defaults === 'function' ? defaults() : defaults),
      ...options,
    });
    clients.push(memory);
    return memory;
  };
}
