import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, tempDir } from '../helpers/stores.js';
import { runMemoir as memoir } from '../integrations/mcp-harness.js';

// Seed 001's retention ("30 days, unless bookmarked") and deduplication ("95 % similar, keep
// one") at the CLI: `memoir cleanup` and `memoir consolidate` are dry runs that list what would
// go, `--confirm` acts, a scoped run touches its own scope only, and what someone chose to keep
// (bookmarked, manual_save) is never deleted. The real executable, on a real SQLite file.

const DAY = 86_400_000;

/** Memories written 60 days ago into the home's SQLite file: two users' captures, kept ones, duplicates. */
async function seed(home: string) {
  const memory = createMemory({
    home,
    store: createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet }),
    clock: createFixedClock(Date.now() - 60 * DAY),
    logger: quiet,
  });
  const bob = { userId: 'bob' };
  const alice = { userId: 'alice' };
  const captured = { captured: true };
  const [bobOld, bobKept, bobFact, aliceOld] = (
    await memory.retain([
      { content: 'mouse_click(500, 300) succeeded', metadata: captured, scope: bob },
      { content: 'login form filled for the bank', metadata: { ...captured, bookmarked: true }, scope: bob },
      { content: 'Bob keeps his invoices in the blue folder.', scope: bob },
      { content: 'keyboard_type(hello) succeeded', metadata: captured, scope: alice },
    ])
  ).ids;
  const screen = 'Login screen of the staging console with user and password fields';
  const dupes = await memory.retain([
    { content: screen, category: 'screen', scope: bob },
    { content: `${screen}.`, category: 'screen', scope: bob },
    { content: `${screen}!`, category: 'screen', metadata: { manual_save: true }, scope: bob },
  ]);
  await memory.close();
  return { bobOld: bobOld!, bobKept: bobKept!, bobFact: bobFact!, aliceOld: aliceOld!, dupes: dupes.ids };
}

const ids = (stdout: string, key: 'ids' | 'kept') => (JSON.parse(stdout) as Record<string, string[]>)[key]!;

/** The ids of every memory left in the store (an admin run). */
async function left(home: string): Promise<string[]> {
  const listed = await memoir(home, '--json', 'list', '--limit', '1000');
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { memories: Array<{ id: string }> }).memories.map((memory) => memory.id);
}

describe('memoir cleanup and consolidate', () => {
  it('cleanup lists what would go, deletes only with --confirm, keeps to --user and never deletes a bookmark', async () => {
    const home = tempDir('memoir-cli-cleanup-');
    const seeded = await seed(home);

    const dry = await memoir(home, '--user', 'bob', 'cleanup');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Dry run: 1 memory of the scope userId=bob');
    expect(dry.stdout).toContain(seeded.bobOld);
    expect(dry.stdout).not.toContain(seeded.aliceOld);
    expect(dry.stderr).toContain('memoir --user bob cleanup --confirm');
    // Nothing changed.
    expect(await left(home)).toHaveLength(7);

    const done = await memoir(home, '--user', 'bob', '--json', 'cleanup', '--confirm');
    expect(done.code, done.stderr).toBe(0);
    expect(ids(done.stdout, 'ids')).toEqual([seeded.bobOld]);
    const after = await left(home);
    expect(after).not.toContain(seeded.bobOld);
    // The bookmark, the fact a caller retained, and another user's old capture stay.
    expect(after).toEqual(expect.arrayContaining([seeded.bobKept, seeded.bobFact, seeded.aliceOld]));
    expect(after).toHaveLength(6);
    // --retention-days past the memories' age: nothing is old.
    const young = await memoir(home, '--retention-days', '90', '--json', 'cleanup');
    expect(ids(young.stdout, 'ids')).toEqual([]);
  }, 120_000);

  it('consolidate lists the near-duplicates, keeps one of each cluster with --confirm, never a manual_save', async () => {
    const home = tempDir('memoir-cli-consolidate-');
    const { dupes } = await seed(home);

    const dry = await memoir(home, '--user', 'bob', '--json', 'consolidate');
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { dryRun: boolean; ids: string[]; kept: string[]; clusters: number };
    expect(planned).toMatchObject({ dryRun: true, clusters: 1, kept: [dupes[2]] });
    expect([...planned.ids].sort()).toEqual([dupes[0], dupes[1]].sort());
    expect(await left(home)).toHaveLength(7);

    const text = await memoir(home, '--user', 'bob', 'consolidate');
    expect(text.stdout).toContain('Dry run: 2 near-duplicates of the scope userId=bob in 1 cluster');

    const done = await memoir(home, '--user', 'bob', '--json', 'consolidate', '--confirm');
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ dryRun: false, deleted: 2, kept: [dupes[2]] });
    const after = await left(home);
    expect(after).toContain(dupes[2]);
    expect(after).not.toContain(dupes[0]);
    expect(after).toHaveLength(5);
  }, 120_000);
});
