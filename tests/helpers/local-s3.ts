import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
  writeObjectsWhole(server);
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

/** What s3rver's filesystem store is given to write. */
interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | NodeJS.ReadableStream;
  metadata: Record<string, string>;
}

/** The part of s3rver's filesystem store (lib/stores/filesystem.js) an object write uses. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
}

let partialWrites = 0;

/**
 * Make an object appear whole or not at all, as on S3. s3rver streams a PUT straight into the
 * object's file, so a reader listing the prefix meanwhile reads a file still being written (a
 * LanceDB manifest of 0 bytes: "Range started at 0 and ended at 0"), and a client killed during
 * its PUT — the kill tests do that — leaves half an object behind. Here the body goes to a file
 * the listing ignores, and is renamed into place once complete.
 */
function writeObjectsWhole(server: S3rver): void {
  const store = (server as unknown as { store: FilesystemStore }).store;
  store.putObject = async (object) => {
    const target = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}-${++partialWrites}.partial`;
    const md5 = createHash('md5');
    let size = 0;
    try {
      if (Buffer.isBuffer(object.content)) {
        md5.update(object.content);
        size = object.content.length;
        await writeFile(partial, object.content);
      } else {
        const measure = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            md5.update(chunk);
            size += chunk.length;
            done(null, chunk);
          },
        });
        await pipeline(object.content, measure, createWriteStream(partial));
      }
      const digest = md5.digest('hex');
      await store.putMetadata(object.bucket, object.key, object.metadata, digest);
      await rename(partial, target);
      return { size, md5: digest };
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  };
}
