import { mkdtempSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';

/** A bucket on an S3-compatible server (s3rver) on 127.0.0.1, started by this test file. */
export interface LocalS3 {
  /** The bucket every `s3://` URI of the file uses. */
  bucket: string;
  /** LanceDB storage options for the server: valid once `beforeAll` has run. */
  storageOptions(): Record<string, string>;
  /**
   * Copy every object under `from/` in the bucket to `to/`, as a server-side copy would: on the
   * server's disk, without a request per object.
   */
  copyPrefix(from: string, to: string): Promise<void>;
}

/**
 * Start s3rver in this test file's process before its tests and stop it after them. The server
 * keeps its objects in a temporary directory, removed at the end.
 */
export function useLocalS3(bucket = 'memoir'): LocalS3 {
  const directory = mkdtempSync(join(tmpdir(), 'memoir-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  let options: Record<string, string> | undefined;
  beforeAll(async () => {
    const { port } = await server.run();
    options = {
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
    // A request still in flight may write into the directory while it is removed; a leftover
    // temporary directory is better than a hook that never ends.
    const removed = rm(directory, { recursive: true, force: true, maxRetries: 5 }).catch(() => {});
    await Promise.race([removed, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  }, 90_000);
  return {
    bucket,
    storageOptions() {
      if (!options) throw new Error('the local S3 server is not running yet: read storageOptions() inside a test');
      return options;
    },
    async copyPrefix(from, to) {
      // s3rver keeps an object under <directory>/<bucket>/<key>, beside its metadata files.
      await cp(join(directory, bucket, from), join(directory, bucket, to), { recursive: true, errorOnExist: true });
    },
  };
}
