import { describe, expect, it, vi } from 'vitest';
import { createMemoriesAiProvider, MEMORIES_AI_BASE_URL } from '../../src/adapters/memories-ai/index.js';
import { ConfigError, ValidationError } from '../../src/core/spec/errors.js';
import { videoProviderContract } from '../contracts/video-provider.contract.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { thrownBy } from '../helpers/thrown.js';

videoProviderContract('memories-ai', {
  make: (server, overrides) =>
    createMemoriesAiProvider({
      apiKey: overrides?.apiKey ?? server.apiKey,
      baseUrl: server.baseUrl,
      timeoutMs: overrides?.timeoutMs ?? 5000,
      minIntervalMs: overrides?.minIntervalMs ?? 0,
    }),
});

describe('memories-ai provider options and limits', () => {
  it('needs a key and names the option', () => {
    expect(() => createMemoriesAiProvider({ baseUrl: 'http://127.0.0.1:1' })).toThrow(/apiKey/);
    // Fails when nothing is thrown: the assertions are not inside a catch that may never run.
    const error = thrownBy(() => createMemoriesAiProvider({ apiKey: 'k', timeoutMs: -1 }));
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/timeoutMs/);
  });

  it('defaults to the Datalake base URL', () => {
    expect(MEMORIES_AI_BASE_URL).toBe('https://api.memories.ai/serve/datalake/v1');
  });

  it('by default starts at most one request a second, even for calls made at once', async () => {
    const server = await new MemoriesAiServer().start();
    // When the client starts each request: arrival at the loopback server, in this same busy
    // process, can lag its start by tens of milliseconds and shorten the gap seen there.
    const starts: number[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((...args: Parameters<typeof fetch>) => {
      starts.push(Date.now());
      return realFetch(...args);
    });
    try {
      // No minIntervalMs: the default is what is under test.
      const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl });
      await Promise.all([provider.search({ text: 'one' }), provider.search({ text: 'two' })]);
      // The collection lookup and two searches: three requests, so at least two full intervals.
      expect(server.requests.length).toBeGreaterThanOrEqual(3);
      expect(starts).toHaveLength(server.requests.length);
      const gaps = starts.slice(1).map((at, index) => at - starts[index]!);
      // The client takes its slot, then builds the request and calls fetch: those synchronous
      // steps may put one observed start a millisecond or two after its slot (999 ms was seen).
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(995);
      expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(1990);
    } finally {
      spy.mockRestore();
      await server.close();
    }
  });

  it('refuses a file over the upload limit before sending anything', async () => {
    const server = await new MemoriesAiServer().start();
    const provider = createMemoriesAiProvider({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      maxUploadBytes: 10,
      minIntervalMs: 0,
    });
    const error = await provider.upload({ filePath: new URL(import.meta.url).pathname }).catch((e: unknown) => e);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/filePath/);
    expect(server.requests).toHaveLength(0);
    await server.close();
  });
});
