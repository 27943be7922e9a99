import { createInMemoryStore } from './adapters/in-memory/index.js';
import { createLocalEmbedder } from './adapters/local-embedder/index.js';
import { createMemoryClient, type MemoryClient } from './core/memory-client.js';
import type { MemoryOptions } from './core/memory-options.js';

/**
 * Create a memory client. With no options it runs offline with no API key: an
 * in-memory store and the local hashing embedder. Options are validated once, here;
 * a bad option is a ConfigError naming it.
 *
 * @example
 * ```ts
 * const memory = createMemory({ scope: { userId: 'alice' } });
 * await memory.retain({ content: 'Alice prefers short answers.', kind: 'opinion', entities: ['Alice'] });
 * const { results } = await memory.recall('how should I answer Alice?');
 * ```
 */
export function createMemory(options?: MemoryOptions): MemoryClient {
  return createMemoryClient(options, { store: () => createInMemoryStore(), embedder: () => createLocalEmbedder() });
}
