import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBackupArchive, listBackups, readBackupArchive } from '../../src/core/backup/index.js';
import { createMemory, type MemoryClient, type MemoryStore, ValidationError } from '../../src/index.js';
import { collect, quiet, STORES, type StoreFactory, tempDir } from '../helpers/stores.js';

// A scoped client's backup, restore, clearAll, export and import stay inside its scope:
// nothing of another scope is archived, deleted, replaced or imported; an archive or a file
// holding anything else is refused before any data changes. The admin keeps the whole store.

interface World {
  store: MemoryStore;
  alice: MemoryClient;
  bob: MemoryClient;
  admin: MemoryClient;
  directory: string;
  bobIds: string[];
}

async function world(make: StoreFactory, root: string): Promise<World> {
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
  return { store, alice, bob, admin, directory, bobIds };
}

const lines = (client: MemoryClient) => collect(client.export());

async function expectRefused(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(ValidationError.isInstance(error), `expected a ValidationError, got ${String(error)}`).toBe(true);
  expect((error as Error).message).toMatch(message);
}

describe.each(STORES)('Backups of a scoped client stay in its scope (%s store)', (_name, makeStore) => {
  const root = tempDir('memoir-backup-scope-');

  it('backup archives only the client’s scope, and says so in the manifest', async () => {
    const { alice, admin } = await world(makeStore, root);
    const info = await alice.backup('mine');
    const archive = readBackupArchive(fs.readFileSync(info.path));
    expect(archive.manifest.scope).toEqual({ userId: 'alice' });
    expect(archive.memories).toHaveLength(2);
    const scopes = [
      ...archive.memories.map((record) => record.memory.scope),
      ...Object.values(archive.records)
        .flat()
        .map((record) => record.scope),
    ];
    expect(scopes.every((scope) => scope.userId === 'alice')).toBe(true);
    expect(archive.records.sessions.length + archive.records.entities.length).toBeGreaterThan(0);
    const whole = readBackupArchive(fs.readFileSync((await admin.backup('all')).path));
    expect(whole.manifest.scope).toBeUndefined();
    expect(whole.memories).toHaveLength(4);
    await admin.close();
  });

  it('clearAll deletes the client’s scope only, with every tally of the other scope intact', async () => {
    const { alice, bob, admin } = await world(makeStore, root);
    const bobBefore = await lines(bob);
    const bobStats = await bob.stats();
    const deleted = await alice.clearAll({ confirm: true });
    expect(deleted.memories).toBe(2);
    expect(deleted.sessions).toBeGreaterThan(0);
    expect(deleted.entities).toBeGreaterThan(0);
    expect(await lines(alice)).toHaveLength(1); // the header
    expect(await lines(bob)).toEqual(bobBefore);
    expect(await bob.stats()).toEqual(bobStats);
    expect((await admin.list({ limit: 100 })).map((memory) => memory.scope.userId)).toEqual(['bob', 'bob']);
    await admin.close();
  });

  it('restore replaces the client’s scope only', async () => {
    const { alice, bob, admin } = await world(makeStore, root);
    const aliceBefore = await lines(alice);
    const bobBefore = await lines(bob);
    const info = await alice.backup('mine');
    await alice.retain('Alice added this after the backup.');
    await alice.forget((await alice.list({ limit: 1 }))[0]!.id);
    const report = await alice.restore(info.path, { confirm: true });
    expect(report.restored.memories).toBe(2);
    expect(await lines(alice)).toEqual(aliceBefore);
    expect(await lines(bob)).toEqual(bobBefore);
    await admin.close();
  });

  it('restore refuses an archive holding another scope, before touching anything', async () => {
    const { alice, admin, directory } = await world(makeStore, root);
    const whole = await admin.backup('everyone');
    const before = await lines(admin);
    const backupsBefore = (await listBackups(directory)).length;
    await expectRefused(
      alice.restore(whole.path, { confirm: true }),
      /memories\.jsonl line \d+\.memory\.scope: expected a scope within \{"userId":"alice"\}/,
    );
    expect(await lines(admin)).toEqual(before);
    // Refused before the automatic backup: nothing was about to be replaced.
    expect(await listBackups(directory)).toHaveLength(backupsBefore);
    await admin.close();
  });

  it('restore refuses an archive that would replace another scope’s memory by id', async () => {
    const { alice, admin, bobIds } = await world(makeStore, root);
    const before = await lines(admin);
    const forged = (await lines(alice)).map((line, index) =>
      index === 1 ? line.replace(/"id":"[^"]+"/, `"id":"${bobIds[0]}"`) : line,
    );
    const file = path.join(root, `forged-${Date.now()}.tar.gz`);
    fs.writeFileSync(
      file,
      buildBackupArchive({ name: 'forged', createdAt: new Date().toISOString(), lines: forged }).archive,
    );
    await expectRefused(
      alice.restore(file, { confirm: true }),
      /memories\.jsonl line 2\.id: expected an id not used outside/,
    );
    expect(await lines(admin)).toEqual(before);
    await admin.close();
  });

  it('import refuses a line of another scope, or one replacing another scope’s data, naming the line', async () => {
    const { alice, bob, admin, bobIds } = await world(makeStore, root);
    const bobBefore = await lines(bob);
    const everyone = await lines(admin);
    await expectRefused(
      alice.import(everyone),
      /line \d+: memory\.scope: expected a scope within \{"userId":"alice"\}/,
    );
    const mine = await lines(alice);
    const forged = mine.map((line, index) =>
      index === 1 ? line.replace(/"id":"[^"]+"/, `"id":"${bobIds[1]}"`) : line,
    );
    await expectRefused(alice.import(forged), /line 2: memory\.id: expected an id not already used outside/);
    expect(await lines(bob)).toEqual(bobBefore);
    // Its own export imports back unchanged.
    await alice.import(mine);
    expect(await lines(alice)).toEqual(mine);
    await admin.close();
  });

  it('the admin backs up and restores the whole store', async () => {
    const { alice, admin } = await world(makeStore, root);
    const before = await lines(admin);
    const info = await admin.backup('all');
    await alice.clearAll({ confirm: true });
    await admin.restore(info.path, { confirm: true });
    expect(await lines(admin)).toEqual(before);
    await admin.close();
  });
});
