// The example store runs the contracts memoir's own stores pass, from the installed package as
// any store's author would (`npx vitest run` in a project with memoir and vitest installed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMemoryStoreContract, runScopeIsolationContract } from 'memoir/testing/contracts';
import { afterAll, expect, it } from 'vitest';
import { createJsonStore } from './json-store.js';

const dir = mkdtempSync(join(tmpdir(), 'json-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const create = () => createJsonStore(join(dir, `store-${++files}.json`));

runMemoryStoreContract({
  name: 'json-store',
  create,
  // It has only the required functions: the tests that need an optional native are skipped,
  // each naming the native; memoir's derived counts, stats and write queue are tested instead.
  capabilities: {
    lexicalSearch: false,
    vectorSearch: false,
    check: false,
    listUnembedded: false,
    resetEmbeddings: false,
    transaction: false,
  },
});

runScopeIsolationContract({
  name: 'json-store',
  create,
  skip: [{ reason: 'clearAll is a bulk change, which needs transaction() or stageChange()', matching: /clearAll/ }],
});

it('keeps what it holds across a restart', async () => {
  const path = join(dir, 'restart.json');
  const vector = new Float32Array([0.6, 0.8]);
  const first = createJsonStore(path);
  await first.open({ id: 'e', dimensions: 2 });
  await first.put('opinion', [{ id: 'o', scope: { userId: 'u' } } as never]);
  await first.put('memory', [{ memory: { id: 'm', scope: {} } as never, embedding: vector }]);
  await first.close();
  const again = createJsonStore(path);
  await again.open({ id: 'e', dimensions: 2 });
  expect(await again.get('memory', ['m'])).toEqual([{ id: 'm', scope: {} }]);
  expect(await again.list('opinion', { scope: { userId: 'u' } })).toEqual([{ id: 'o', scope: { userId: 'u' } }]);
  expect(await again.getEmbeddings(['m'])).toEqual(new Map([['m', vector]]));
  await again.close();
});
