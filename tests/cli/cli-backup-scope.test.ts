import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { DAMAGES, fingerprint } from '../helpers/damage.js';
import { tempDir } from '../helpers/stores.js';

// A backup made by a scoped run (`memoir --user sam backup samonly`) holds sam's memories
// only, so it is never restored as the whole store: `memoir doctor --restore-backup` picks
// the newest backup of the whole store, refuses a scoped one named explicitly, and an
// unscoped `memoir restore` of it is refused; `memoir backup --list` shows each backup's
// scope, and a scoped run lists its own scope's backups only.

const root = tempDir('memoir-cli-backup-scope-');
let homes = 0;

async function memoir(home: string, ...argv: string[]) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: home } };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const storeOf = (home: string) => join(home, 'memoir.sqlite');
const asideFiles = (home: string) => readdirSync(home).filter((name) => name.startsWith('memoir.sqlite.damaged-'));

/** A home with one memory each of alice, bob and sam, a full backup, then a newer backup of sam's scope. */
async function homeWithScopedBackup() {
  const home = join(root, `home-${++homes}`);
  for (const user of ['alice', 'bob', 'sam']) {
    const run = await memoir(home, '--user', user, 'retain', `${user} parks the bike behind the library.`);
    expect(run.code, run.stderr).toBe(0);
  }
  const full = JSON.parse((await memoir(home, '--json', 'backup', 'full')).stdout) as { path: string };
  const samonly = JSON.parse((await memoir(home, '--user', 'sam', '--json', 'backup', 'samonly')).stdout) as {
    path: string;
    counts: { memories: number };
  };
  expect(samonly.counts.memories).toBe(1);
  return { home, full: full.path, samonly: samonly.path };
}

async function users(home: string): Promise<string[]> {
  const run = await memoir(home, '--json', 'list');
  expect(run.code, run.stderr).toBe(0);
  const listed = JSON.parse(run.stdout) as { memories: Array<{ scope: { userId?: string } }> };
  return listed.memories.map((memory) => memory.scope.userId ?? '').sort();
}

describe('backups made by a scoped run are never restored as the whole store', () => {
  it('doctor --restore-backup restores the newest whole-store backup, not a newer scoped one', async () => {
    const { home, full } = await homeWithScopedBackup();
    DAMAGES['the header overwritten']!(storeOf(home));

    const diagnosis = await memoir(home, 'doctor');
    expect(diagnosis.code).toBe(1);
    expect(diagnosis.stdout).toMatch(/newest that verifies: "full"/);

    const repaired = await memoir(home, 'doctor', '--restore-backup');
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(full);
    expect(await users(home)).toEqual(['alice', 'bob', 'sam']);
  });

  it('doctor --restore-backup with only scoped backups restores nothing and says why', async () => {
    const home = join(root, `home-${++homes}`);
    expect((await memoir(home, '--user', 'sam', 'retain', 'sam only')).code).toBe(0);
    expect((await memoir(home, '--user', 'sam', 'backup', 'samonly')).code).toBe(0);
    DAMAGES['the header overwritten']!(storeOf(home));
    const before = fingerprint(storeOf(home));
    const run = await memoir(home, 'doctor', '--restore-backup');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no backup of the whole store/);
    expect(run.stderr).toMatch(/samonly/);
    expect(fingerprint(storeOf(home))).toBe(before);
    expect(asideFiles(home)).toEqual([]);
  });

  it('doctor --restore-backup <scoped backup> is refused, naming its scope, and changes nothing', async () => {
    const { home, samonly } = await homeWithScopedBackup();
    DAMAGES['the header overwritten']!(storeOf(home));
    const before = fingerprint(storeOf(home));
    const run = await memoir(home, 'doctor', '--restore-backup', samonly);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/covers only the scope userId=sam/);
    expect(fingerprint(storeOf(home))).toBe(before);
    expect(asideFiles(home)).toEqual([]);
  });

  it('an unscoped memoir restore of a scoped backup is refused and every user keeps their memories', async () => {
    const { home, samonly } = await homeWithScopedBackup();
    const run = await memoir(home, 'restore', samonly, '--confirm');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/covers only the scope userId=sam/);
    expect(run.stderr).toMatch(/--user sam/);
    expect(await users(home)).toEqual(['alice', 'bob', 'sam']);
    // In sam's scope it restores sam's memories and leaves the others alone.
    const scoped = await memoir(home, '--user', 'sam', 'restore', samonly, '--confirm');
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(await users(home)).toEqual(['alice', 'bob', 'sam']);
  });

  it('backup --list shows each backup’s scope; a scoped run lists its own scope’s backups only', async () => {
    const { home } = await homeWithScopedBackup();
    const table = await memoir(home, 'backup', '--list');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/scope/);
    expect(table.stdout).toMatch(/samonly.*userId=sam/);
    expect(table.stdout).toMatch(/full.*whole store/);

    const listed = JSON.parse((await memoir(home, '--json', 'backup', '--list')).stdout) as {
      backups: Array<{ name: string; scope: unknown }>;
    };
    expect(listed.backups.map(({ name, scope }) => ({ name, scope }))).toEqual([
      { name: 'samonly', scope: { userId: 'sam' } },
      { name: 'full', scope: null },
    ]);

    const sams = JSON.parse((await memoir(home, '--user', 'sam', '--json', 'backup', '--list')).stdout) as {
      backups: Array<{ name: string }>;
    };
    expect(sams.backups.map((backup) => backup.name)).toEqual(['samonly']);
    const alices = await memoir(home, '--user', 'alice', 'backup', '--list');
    expect(alices.stdout).not.toMatch(/samonly|full/);
  });
});

describe('hints never widen the scope they were given', () => {
  /** The command a refusal prints in backquotes, as argv, checked to keep `--user bob`. */
  function printedCommand(stderr: string): string[] {
    const hint = /`(memoir [^`]*restore [^`]*--confirm)`/.exec(stderr)?.[1];
    expect(hint, stderr).toBeDefined();
    expect(hint).toContain('--user bob');
    return hint!.split(' ').slice(1);
  }

  async function contents(home: string): Promise<string[]> {
    const listed = JSON.parse((await memoir(home, '--json', 'list')).stdout) as {
      memories: Array<{ content: string }>;
    };
    return listed.memories.map((memory) => memory.content).sort();
  }

  it('restore without --confirm prints the command with the scope flags; run as printed it replaces bob’s memories only', async () => {
    const { home } = await homeWithScopedBackup();
    const bobs = JSON.parse((await memoir(home, '--user', 'bob', '--json', 'backup', 'bobonly')).stdout) as {
      path: string;
    };
    // Written after the backups: a restore of the whole store would take alice's away.
    for (const user of ['alice', 'bob']) {
      expect((await memoir(home, '--user', user, 'retain', `${user} moved the bike to the garage.`)).code).toBe(0);
    }
    const refused = await memoir(home, '--user', 'bob', 'restore', bobs.path);
    expect(refused.code).not.toBe(0);
    const run = await memoir(home, ...printedCommand(refused.stderr));
    expect(run.code, run.stderr).toBe(0);
    const after = await contents(home);
    expect(after).toContain('alice moved the bike to the garage.');
    expect(after).not.toContain('bob moved the bike to the garage.');
    expect(after).toContain('bob parks the bike behind the library.');
  });

  it('the same hint for a backup of every scope, run as printed, changes nothing of another user', async () => {
    const { home, full } = await homeWithScopedBackup();
    expect((await memoir(home, '--user', 'alice', 'retain', 'alice moved the bike to the garage.')).code).toBe(0);
    const before = await contents(home);
    const refused = await memoir(home, '--user', 'bob', 'restore', full);
    expect(refused.code).not.toBe(0);
    // A backup holding other scopes is refused by a scoped restore: nothing is replaced.
    const run = await memoir(home, ...printedCommand(refused.stderr));
    expect(run.code).not.toBe(0);
    expect(await contents(home)).toEqual(before);
  });
});
