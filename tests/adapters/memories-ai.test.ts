import { describe, expect, it } from 'vitest';
import { createMemoriesAiProvider, MEMORIES_AI_BASE_URL } from '../../src/adapters/memories-ai/index.js';
import { ConfigError, ValidationError } from '../../src/core/spec/errors.js';
import { videoProviderContract } from '../contracts/video-provider.contract.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';

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
    try {
      createMemoriesAiProvider({ apiKey: 'k', timeoutMs: -1 });
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/timeoutMs/);
    }
  });

  it('defaults to the Datalake base URL and one request a second', () => {
    expect(MEMORIES_AI_BASE_URL).toBe('https://api.memories.ai/serve/datalake/v1');
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
