import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { killSuite } from './lancedb-kill-suite.js';

// The LanceDB kill test on object storage: an S3-compatible server (s3rver) on 127.0.0.1 in
// this process, which the killed children write to (see lancedb-kill-suite.ts).

const directory = mkdtempSync(join(tmpdir(), 'memoir-kill-s3rver-'));
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory,
  configureBuckets: [{ name: 'memoir' }],
});
const root = tempDir('memoir-lancedb-kill-s3-');
let storageOptions: Record<string, string> = {};
let runs = 0;

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
  // LanceDB's HTTP client keeps idle connections open, and the server's close waits for them.
  await Promise.race([server.close(), new Promise((resolve) => setTimeout(resolve, 5000))]);
  rmSync(directory, { recursive: true, force: true });
}, 30_000);

describe('lancedb on s3:// (s3rver), killed', () => {
  killSuite('s3', () => ({ uri: `s3://memoir/kill-${++runs}`, storageOptions }), root);
});
