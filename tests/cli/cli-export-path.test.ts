import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// `memoir export <file>` takes any path the person names, except memoir's own live data:
// the store file, its -wal/-shm/-journal, any other SQLite database or its sidecar, a
// LanceDB table and the backups folder — however the path reaches them (relative, `..`, a
// symlinked file, a dangling link, a symlinked directory). The refusal is a usage error
// that says why, and the store keeps every memory.

async function memoir(home: string, ...argv: string[]) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: home } };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('memoir export refuses memoir’s own files as its output', () => {
  const root = tempDir('memoir-cli-export-path-');

  it('refuses the live store, its sidecars, backups, LanceDB tables and other databases, by any path', async () => {
    const home = join(root, 'home');
    for (const user of ['alice', 'bob']) {
      expect((await memoir(home, '--user', user, 'retain', `${user} keeps the server in the garage.`)).code).toBe(0);
    }
    const backup = JSON.parse((await memoir(home, '--json', 'backup', 'kept')).stdout) as { path: string };
    const backupDigest = digest(backup.path);
    const store = join(home, 'memoir.sqlite');

    const outside = join(root, 'outside');
    mkdirSync(outside);
    symlinkSync(store, join(outside, 'link.jsonl'));
    symlinkSync(join(home, 'memoir.sqlite-journal'), join(outside, 'dangling.jsonl'));
    symlinkSync(home, join(outside, 'home-link'));
    const lance = join(outside, 'lancedb', 'memories.lance');
    mkdirSync(lance, { recursive: true });
    const workspaceIndex = join(outside, 'workspace', '.memory', 'index.sqlite');
    mkdirSync(join(outside, 'workspace', '.memory'), { recursive: true });
    writeFileSync(workspaceIndex, readFileSync(store));

    const refused = [
      store,
      relative(process.cwd(), store),
      join(home, 'sub', '..', 'memoir.sqlite'),
      `${store}-wal`,
      `${store}-shm`,
      `${store}-journal`,
      join(outside, 'link.jsonl'),
      join(outside, 'dangling.jsonl'),
      join(outside, 'home-link', 'memoir.sqlite'),
      join(outside, 'home-link', 'memoir.sqlite-wal'),
      backup.path,
      join(home, 'backups', 'new.jsonl'),
      join(outside, 'home-link', 'backups', 'new.jsonl'),
      join(home, 'config.json'),
      join(home, 'procedures', 'deploy.md'),
      join(home, 'attachments', 'x.jsonl'),
      join(lance, 'data.jsonl'),
      workspaceIndex,
      `${workspaceIndex}-wal`,
    ];
    for (const target of refused) {
      const run = await memoir(home, 'export', target);
      expect(run.code, `${target}: ${run.stderr}`).toBe(2);
      expect(run.stderr, target).toMatch(/^error: export will not write to .*: it is .*memoir's data/);
      expect(run.stderr, target).toMatch(/hint: /);
    }
    const json = await memoir(home, '--json', 'export', store);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'PROTECTED_PATH', exitCode: 2 } });

    expect(digest(backup.path)).toBe(backupDigest);
    const stats = await memoir(home, '--json', 'stats');
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ memories: 2 });
    expect(readFileSync(workspaceIndex).subarray(0, 15).toString()).toBe('SQLite format 3');

    // Any other path is the person's to choose, a symlink to an ordinary file included.
    writeFileSync(join(outside, 'plain.jsonl'), 'old');
    symlinkSync(join(outside, 'plain.jsonl'), join(outside, 'plain-link.jsonl'));
    for (const target of [join(outside, 'export.jsonl'), join(outside, 'plain-link.jsonl'), join(home, 'mine.jsonl')]) {
      const run = await memoir(home, 'export', target);
      expect(run.code, `${target}: ${run.stderr}`).toBe(0);
    }
  });
});
