import { join } from 'node:path';
import { describe } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { killSuite } from './lancedb-kill-suite.js';

// The LanceDB kill test on a directory (see lancedb-kill-suite.ts).

const root = tempDir('memoir-lancedb-kill-');
let runs = 0;

describe('lancedb on a directory, killed', () => {
  killSuite('directory', () => ({ uri: join(root, `store-${++runs}`) }), root, { stops: 7, random: 2 });
});
