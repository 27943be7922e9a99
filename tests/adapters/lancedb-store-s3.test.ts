import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createMemory } from '../../src/index.js';
import { runMemoryStoreContract } from '../contracts/memory-store.contract.js';

// The same store on object storage: an S3-compatible server (s3rver) on 127.0.0.1, started
// here, and an s3:// URI with storageOptions passed through to LanceDB.

const directory = mkdtempSync(join(tmpdir(), 'memoir-s3rver-'));
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory,
  configureBuckets: [{ name: 'memoir' }],
});
let storageOptions: Record<string, string> = {};
let prefix = 0;

beforeAll(async () => {
  const { port } = await server.run();
  storageOptions = {
    aws_access_key_id: 'S3RVER',
    aws_secret_access_key: 'S3RVER',
    aws_endpoint: `http://127.0.0.1:${port}`,
    aws_region: 'us-east-1',
    allow_http: 'true',
  };
});

afterAll(async () => {
  // LanceDB's HTTP client keeps idle connections open, and the server's close waits for them:
  // give it a few seconds, then let the test process end them.
  await Promise.race([server.close(), new Promise((resolve) => setTimeout(resolve, 5000))]);
  rmSync(directory, { recursive: true, force: true });
}, 30_000);

const nextStore = () => createLanceStore({ uri: `s3://memoir/store-${++prefix}`, storageOptions });

describe('on s3:// (s3rver)', () => {
  runMemoryStoreContract({ name: 'lancedb on s3', create: nextStore });

  it('a client retains and recalls through the bucket, and a new store reads it back', async () => {
    const uri = `s3://memoir/client-${++prefix}`;
    const memory = createMemory({ store: createLanceStore({ uri, storageOptions }), logger: { log() {} } });
    await memory.retain(['The deploy key lives in the vault', 'Lunch is at noon on Fridays']);
    expect((await memory.recall('deploy key', { k: 1 })).results[0]?.memory.content).toBe(
      'The deploy key lives in the vault',
    );
    await memory.close();
    const again = createLanceStore({ uri, storageOptions });
    expect(await again.countMemories()).toBe(2);
    await again.close();
  });

  it('an endpoint that does not answer is a StoreError naming the URI', async () => {
    const store = createLanceStore({
      uri: `s3://memoir/unreachable-${++prefix}`,
      // s3rver takes any credentials, so a refused connection stands in for a denied one.
      storageOptions: { ...storageOptions, aws_endpoint: 'http://127.0.0.1:9', client_max_retries: '0' },
    });
    const error = await store.countMemories().then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.name).toBe('StoreError');
    expect(error?.message).toMatch(/s3:\/\/memoir\/unreachable/);
    await store.close();
  }, 60_000);
});
