import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createMemory } from '../../src/index.js';
import { runMemoryStoreContract } from '../contracts/memory-store.contract.js';
import { useLocalS3 } from '../helpers/local-s3.js';

// The same store on object storage: an S3-compatible server (s3rver) on 127.0.0.1, started
// here, and an s3:// URI with storageOptions passed through to LanceDB.

const s3 = useLocalS3();
let prefix = 0;

// Creating a store writes some 180 objects through the server (each table, and the versions its
// indexes add), about 2 s of s3rver time a store; the contract opens a fresh store for each of
// its 100 cases. So the store is created once, through the server, and each case opens its own
// copy of it. The tests below create theirs from nothing.
const storeAt = (name: string) =>
  createLanceStore({ uri: `s3://${s3.bucket}/${name}`, storageOptions: s3.storageOptions() });
let template: Promise<void> | undefined;
const createTemplate = async () => {
  const store = storeAt('template');
  await store.count();
  await store.close();
};
const nextStore = async () => {
  template ??= createTemplate();
  await template;
  const name = `store-${++prefix}`;
  await s3.copyPrefix('template', name);
  return storeAt(name);
};

describe('on s3:// (s3rver)', () => {
  runMemoryStoreContract({
    name: 'lancedb on s3',
    create: nextStore,
    capabilities: { stageChange: true },
    // Queries run in LanceDB the same whatever holds the files; the directory suite
    // (lancedb-store.test.ts) runs these. Here, what reaches the bucket: writes, transactions,
    // bulk changes, reopening, records, close.
    // Each case costs about 4.5 s of s3rver, so the directory suite runs what is the same code
    // whatever holds the files.
    skip: [
      {
        reason: 'the same query code as on a directory, run by lancedb-store.test.ts',
        matching:
          /^(filter|lexical|vector|unicode|scope isolation): |^listMemories orders|returned (records|objects) are copies$|^(get leaves out|listUnembedded|invalidated memories|keeps lone surrogates|a fresh store is empty)/,
      },
      {
        reason: 'checked in memory before any object is written, run by lancedb-store.test.ts',
        matching: /^declares |^open (refuses|accepts) |^upsert rejects an embedding whose length/,
      },
      {
        reason: 'the opinions table takes the same code path to the bucket as these three',
        matching: /^(procedures|sessions|entities): /,
      },
    ],
  });

  it('a client retains and recalls through the bucket, and a new store reads it back', async () => {
    const uri = `s3://memoir/client-${++prefix}`;
    const memory = createMemory({
      store: createLanceStore({ uri, storageOptions: s3.storageOptions() }),
      logger: { log() {} },
    });
    await memory.retain(['The deploy key lives in the vault', 'Lunch is at noon on Fridays']);
    expect((await memory.recall('deploy key', { k: 1 })).results[0]?.memory.content).toBe(
      'The deploy key lives in the vault',
    );
    await memory.close();
    const again = createLanceStore({ uri, storageOptions: s3.storageOptions() });
    expect(await again.count()).toBe(2);
    await again.close();
  });

  it('an endpoint that does not answer is a StoreError naming the URI', async () => {
    const store = createLanceStore({
      uri: `s3://memoir/unreachable-${++prefix}`,
      // s3rver takes any credentials, so a refused connection stands in for a denied one.
      storageOptions: { ...s3.storageOptions(), aws_endpoint: 'http://127.0.0.1:9', client_max_retries: '0' },
    });
    const error = await store.count().then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.name).toBe('StoreError');
    expect(error?.message).toMatch(/s3:\/\/memoir\/unreachable/);
    await store.close();
  }, 60_000);
});
