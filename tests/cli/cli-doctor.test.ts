import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { createMemory } from '../../src/create-memory.js';
import { captureOutput } from '../helpers/cli-output.js';
import {
  buildStore,
  canMakeReadOnly,
  copyHome,
  DAMAGES,
  FIXTURE,
  fingerprint,
  makeReadOnly,
  overwrite,
} from '../helpers/damage.js';
import { quiet, tempDir } from '../helpers/stores.js';

// memoir doctor, backup and restore over a real SQLite file: a damaged store is
// diagnosed, repaired by salvage or from the newest backup that verifies, and the damaged
// file is always kept.

const root = tempDir('memoir-cli-doctor-');
let pristine: string;

beforeAll(async () => {
  pristine = await buildStore(root, 'pristine');
}, 60_000);

const capture = () => captureOutput();

async function memoir(home: string, ...argv: string[]) {
  const stdout = capture();
  const stderr = capture();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: home }, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const store = (home: string) => join(home, 'memoir.sqlite');
const asideFiles = (home: string) => readdirSync(home).filter((name) => name.startsWith('memoir.sqlite.damaged-'));

describe('memoir backup and restore', () => {
  it('backs up, lists, refuses to restore without --confirm, and restores with it', async () => {
    const home = copyHome(pristine, root);
    const made = await memoir(home, 'backup', 'nightly', '--json');
    expect(made.code).toBe(0);
    const info = JSON.parse(made.stdout) as { path: string; counts: { memories: number } };
    expect(info.counts.memories).toBe(FIXTURE.memories);

    const listed = await memoir(home, 'backup', '--list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('nightly');

    const client = createMemory({ home, logger: quiet });
    const [first] = await client.list({ limit: 1 });
    await client.forget(first!.id);
    await client.close();

    const unconfirmed = await memoir(home, 'restore', info.path);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--confirm/);
    expect((await memoir(home, 'get', first!.id)).code).toBe(1);

    const restored = await memoir(home, 'restore', info.path, '--confirm');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(new RegExp(`Restored ${FIXTURE.memories} memories`));
    expect((await memoir(home, 'get', first!.id)).code).toBe(0);
    const after = JSON.parse((await memoir(home, 'backup', '--list', '--json')).stdout) as {
      backups: Array<{ name: string }>;
    };
    expect(after.backups.map((backup) => backup.name).sort()).toEqual(['auto-before-restore', 'nightly']);
  });

  it('on a damaged store, restore points at memoir doctor, not at permissions', async () => {
    const home = copyHome(pristine, root);
    const backup = JSON.parse((await memoir(home, 'backup', '--json')).stdout) as { path: string };
    DAMAGES['truncated to half']!(store(home));
    const result = await memoir(home, 'restore', backup.path, '--yes');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is damaged: /);
    expect(result.stderr).toMatch(/hint: Run `memoir doctor --home /);
    expect(result.stderr).not.toMatch(/writable|permission/i);
  });
});

describe('memoir doctor', () => {
  it('says ok about a healthy store, with its counts, and exits 0', async () => {
    const home = copyHome(pristine, root);
    const result = await memoir(home, 'doctor');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/memoir\.sqlite: ok — 400 memories/);
    expect(result.stdout).toMatch(/integrity check ok/);
    expect(result.stdout).not.toMatch(/full-text check/);
  });

  it('diagnoses a damaged store, names both repairs and the backup that verifies, and changes nothing', async () => {
    const home = copyHome(pristine, root);
    await memoir(home, 'backup', 'good');
    DAMAGES['eight pages in the middle overwritten']!(store(home));
    const before = fingerprint(store(home));
    const result = await memoir(home, 'doctor');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/memoir\.sqlite: damaged/);
    expect(result.stdout).toMatch(/newest that verifies: "good"/);
    expect(result.stderr).toMatch(/--repair/);
    expect(result.stderr).toMatch(/--restore-backup/);
    expect(fingerprint(store(home))).toBe(before);
    expect(asideFiles(home)).toEqual([]);
  });

  it('--repair moves the damaged file aside, byte for byte, and salvages it into a store memoir uses again', async () => {
    const home = copyHome(pristine, root);
    DAMAGES['eight pages in the middle overwritten']!(store(home));
    const damaged = fingerprint(store(home));
    const result = await memoir(home, 'doctor', '--repair');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Moved the damaged file to .*memoir\.sqlite\.damaged-20260102-030405/);
    expect(result.stdout).toMatch(/Salvaged \d+ memories/);
    const [aside] = asideFiles(home);
    expect(fingerprint(join(home, aside!))).toBe(damaged);
    expect((await memoir(home, 'doctor')).code).toBe(0);
    const recalled = await memoir(home, 'recall', 'lighthouse keeper', '--json');
    expect(recalled.code).toBe(0);
    expect((JSON.parse(recalled.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect((await memoir(home, 'retain', 'written after the repair')).code).toBe(0);
  });

  it('--restore-backup restores the newest backup that verifies, skipping a corrupt newer one', async () => {
    const home = copyHome(pristine, root);
    const older = JSON.parse((await memoir(home, 'backup', 'older', '--json')).stdout) as { path: string };
    const client = createMemory({ home, logger: quiet });
    await client.retain({ content: 'only in the newer backup' });
    const newer = await client.backup('newer');
    await client.close();
    overwrite(newer.path, 200, 64, 0x00);
    DAMAGES['the header overwritten']!(store(home));

    const diagnosis = await memoir(home, 'doctor');
    expect(diagnosis.stdout).toMatch(/does not verify/);
    expect(diagnosis.stdout).toMatch(/newest that verifies: "older"/);

    const result = await memoir(home, 'doctor', '--restore-backup');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(older.path);
    expect(result.stdout).toMatch(new RegExp(`Restored ${FIXTURE.memories} memories`));
    expect(asideFiles(home)).toHaveLength(1);
    expect((await memoir(home, 'doctor')).code).toBe(0);
  });

  it('reports a 0-byte store as empty and brings the backup back', async () => {
    const home = copyHome(pristine, root);
    await memoir(home, 'backup', 'kept');
    writeFileSync(store(home), '');
    const diagnosis = await memoir(home, 'doctor');
    expect(diagnosis.code).toBe(1);
    expect(diagnosis.stderr).toMatch(/empty \(0 bytes\)/);
    expect(diagnosis.stderr).toMatch(/--restore-backup/);
    const result = await memoir(home, 'doctor', '--restore-backup', '--json');
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { restored: { restored: { memories: number } }; movedTo: string };
    expect(report.restored.restored.memories).toBe(FIXTURE.memories);
    expect(existsSync(report.movedTo)).toBe(true);
  });

  it('leaves a healthy store alone and refuses contradictory flags', async () => {
    const home = copyHome(pristine, root);
    const before = fingerprint(store(home));
    expect((await memoir(home, 'doctor', '--repair')).code).toBe(1);
    expect((await memoir(home, 'doctor', '--restore-backup')).code).toBe(1);
    expect((await memoir(home, 'doctor', '--repair', '--restore-backup')).code).toBe(2);
    expect(fingerprint(store(home))).toBe(before);
    expect(asideFiles(home)).toEqual([]);
  });

  // Root ignores permissions, so the directory is made immutable (chattr +i) when running as root.
  it.runIf(canMakeReadOnly())('in a read-only home: recall works, retain fails saying read-only', async () => {
    const home = copyHome(pristine, root);
    const undo = makeReadOnly(home, [store(home)]);
    try {
      const recalled = await memoir(home, 'recall', 'lighthouse', '-k', '1');
      expect(recalled.code, recalled.stderr).toBe(0);
      const retained = await memoir(home, 'retain', 'cannot be written');
      expect(retained.code).toBe(1);
      expect(retained.stderr).toMatch(/error: .*is read-only/);
      expect((await memoir(home, 'doctor')).stdout).toMatch(/read-only/);
    } finally {
      undo?.();
    }
  });
});
