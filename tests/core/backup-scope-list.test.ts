import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory, NotFoundError, ValidationError } from '../../src/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// listBackups(), verifyBackup() and inspectBackup() say which scope each backup covers, so
// nothing takes a scoped backup for one of the whole store; a scoped client lists only its
// own scope's backups and refuses to verify one holding anything else. None of them opens
// the store, so they work while it is damaged. doctor() names the newest whole-store backup.

describe.each(STORES)('Backups are listed with their scope (%s store)', (_name, makeStore) => {
  const root = tempDir('memoir-backup-scope-list-');

  async function world() {
    const store = makeStore();
    const directory = fs.mkdtempSync(path.join(root, 'backups-'));
    const options = { store, logger: quiet, backupDirectory: directory };
    const alice = createMemory({ ...options, scope: { userId: 'alice' } });
    const bob = createMemory({ ...options, scope: { userId: 'bob' } });
    const admin = createMemory(options);
    await alice.retain({ content: 'Alice keeps the home server in the garage.' });
    await bob.retain({ content: 'Bob keeps his bank PIN in the attic.' });
    const full = await admin.backup('full');
    const mine = await alice.backup('mine');
    fs.writeFileSync(path.join(directory, '20990101-000000-000_foreign.tar.gz'), 'not a backup');
    return { alice, bob, admin, directory, full, mine };
  }

  it('the admin lists every backup with its scope; a scoped client lists its own scope’s only', async () => {
    const { alice, bob, admin, full, mine } = await world();
    const listed = await admin.listBackups();
    expect(listed.map(({ name, scope, problem }) => ({ name, scope, problem: problem !== null }))).toEqual([
      { name: 'foreign', scope: null, problem: true },
      { name: 'mine', scope: { userId: 'alice' }, problem: false },
      { name: 'full', scope: null, problem: false },
    ]);
    expect(listed[1]).toMatchObject({ path: mine.path, counts: { memories: 1 } });
    expect(listed[2]).toMatchObject({ path: full.path, counts: { memories: 2 } });
    expect((await alice.listBackups()).map((backup) => backup.name)).toEqual(['mine']);
    expect(await bob.listBackups()).toEqual([]);
    await admin.close();
  });

  it('verifyBackup and inspectBackup say what a backup covers; a scoped client never verifies another scope’s', async () => {
    const { alice, bob, admin, full, mine } = await world();
    expect(await admin.verifyBackup(mine.path)).toMatchObject({
      name: 'mine',
      scope: { userId: 'alice' },
      counts: { memories: 1 },
    });
    expect(await admin.verifyBackup(full.path)).toMatchObject({ scope: null, counts: { memories: 2 } });
    expect(await alice.inspectBackup(mine.path)).toMatchObject({ scope: { userId: 'alice' }, counts: { memories: 1 } });
    const refused = await alice.verifyBackup(full.path).catch((error: unknown) => error);
    expect(ValidationError.isInstance(refused)).toBe(true);
    const foreign = await bob.verifyBackup(mine.path).catch((error: unknown) => error);
    expect(ValidationError.isInstance(foreign)).toBe(true);
    const missing = await admin.inspectBackup(path.join(root, 'missing.tar.gz')).catch((error: unknown) => error);
    expect(NotFoundError.isInstance(missing)).toBe(true);
    const junk = path.join(root, 'junk.tar.gz');
    fs.writeFileSync(junk, 'not a backup');
    const bad = await admin.inspectBackup(junk).catch((error: unknown) => error);
    expect(ValidationError.isInstance(bad)).toBe(true);
    await admin.close();
  });

  it('doctor() names the newest backup of the whole store, not a newer scoped one', async () => {
    const { admin, full } = await world();
    const report = await admin.doctor();
    expect(report.backups.newest?.path).toBe(full.path);
    expect(report.backups.count).toBe(3);
    await admin.close();
  });
});
