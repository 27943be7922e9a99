import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { killSuite } from './lancedb-kill-suite.js';

// The LanceDB kill test on object storage: an S3-compatible server (s3rver) on 127.0.0.1 in
// this process, which the killed children write to (see lancedb-kill-suite.ts). Fewer kills
// than on a directory: every request goes through the server in this process, and the
// directory run covers the phases; this one proves recovery where no rename is atomic.

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
  await rm(directory, { recursive: true, force: true });
}, 60_000);

describe('lancedb on s3:// (s3rver), killed', () => {
  killSuite('s3', () => ({ uri: `s3://memoir/kill-${++runs}`, storageOptions }), root, { stops: 4, random: 1 });
});
