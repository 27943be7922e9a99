import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory, type MemoryClient } from '../../src/index.js';
import { collect, quiet, STORES, type StoreFactory, tempDir } from '../helpers/stores.js';

// An admin (unscoped) client restoring a backup made by a scoped client replaces that
// backup's scope only: every other scope's memories and records stay exactly as they were,
// and the report says which scope was replaced. A whole-store backup still replaces it all.

const lines = (client: MemoryClient) => collect(client.export());

async function world(make: StoreFactory, root: string) {
  const store = make();
  const directory = fs.mkdtempSync(path.join(root, 'backups-'));
  const options = { store, logger: quiet, backupDirectory: directory };
  const alice = createMemory({ ...options, scope: { userId: 'alice' }, sessionId: 'shared' });
  const bob = createMemory({ ...options, scope: { userId: 'bob' }, sessionId: 'shared' });
  const admin = createMemory(options);
  await alice.retain([
    { content: 'Alice keeps the home server in the garage.', entities: ['Peter'] },
    { content: 'Alice prefers dark mode.', scope: { agentId: 'helper' } },
  ]);
  const { ids: bobIds } = await bob.retain([
    { content: 'Bob keeps the home server in the attic.', entities: ['Peter'] },
    { content: 'Bob prefers light mode.' },
  ]);
  await admin.retain({ content: 'A note of no scope at all.', sessionId: 'admin-session' });
  return { store, alice, bob, admin, bobIds };
}

describe.each(STORES)('An admin restore of a scoped backup replaces that scope only (%s store)', (_name, makeStore) => {
  const root = tempDir('memoir-admin-restore-');

  it('leaves bob’s data exactly as it was and gives alice the backup’s', async () => {
    const { alice, bob, admin, bobIds } = await world(makeStore, root);
    const backup = await alice.backup('alice-only');
    const aliceAtBackup = await lines(alice);

    // Both change after the backup.
    await bob.retain({ content: 'Bob moved the server to the basement.', entities: ['Peter'] });
    await bob.forget(bobIds[1]!);
    await alice.retain({ content: 'Alice bought a second server.', entities: ['Peter'] });
    const bobBefore = await lines(bob);
    const unscopedBefore = (await lines(admin)).filter((line) => line.includes('A note of no scope'));
    expect(unscopedBefore).toHaveLength(1);

    const report = await admin.restore(backup.path, { confirm: true });
    expect(await lines(bob)).toEqual(bobBefore);
    expect(await lines(alice)).toEqual(aliceAtBackup);
    const all = await lines(admin);
    expect(all.filter((line) => line.includes('A note of no scope'))).toEqual(unscopedBefore);
    expect(report.scope).toEqual({ userId: 'alice' });
    expect(report.restored.memories).toBe(2);
    await admin.close();
  });

  it('still replaces the whole store from a whole-store backup, and says so', async () => {
    const { bob, admin } = await world(makeStore, root);
    const backup = await admin.backup('everything');
    const before = await lines(admin);
    await bob.retain({ content: 'Bob added this after the backup.' });
    const report = await admin.restore(backup.path, { confirm: true });
    expect(report.scope).toBeUndefined();
    expect(await lines(admin)).toEqual(before);
    await admin.close();
  });
});
