import { describe } from 'vitest';
import { useLocalS3 } from '../helpers/local-s3.js';
import { tempDir } from '../helpers/stores.js';
import { killSuite } from './lancedb-kill-suite.js';

// The LanceDB kill test on object storage: an S3-compatible server (s3rver) on 127.0.0.1 in
// this process, which the killed children write to (see lancedb-kill-suite.ts). Fewer kills
// than on a directory: every request goes through the server in this process, and the
// directory run covers the phases; this one proves recovery where no rename is atomic.

const s3 = useLocalS3();
const root = tempDir('memoir-lancedb-kill-s3-');
let runs = 0;

describe('lancedb on s3:// (s3rver), killed', () => {
  killSuite('s3', () => ({ uri: `s3://${s3.bucket}/kill-${++runs}`, storageOptions: s3.storageOptions() }), root, {
    stops: 4,
    random: 1,
  });
});
