import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// memory_export and memory_restore as a model drives them over MCP: they take a plain file
// name, never a path, and touch only the memoir home's own folders (`exports`, `backups`).
// Nothing outside the home is written, followed, created or deleted, and a failed write
// leaves the file that was there as it was.

const open: McpConnection[] = [];
async function start(home: string, args: string[] = []): Promise<McpConnection> {
  const connection = await connectMemoirMcp({ home, args, tools: 'all' });
  open.push(connection);
  return connection;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close().catch(() => undefined)));
});

/** Every path under `dir`, relative, sorted (what exists, to compare before and after). */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

const hasPrlimit = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function storeThree(server: McpConnection, prefix = 'Peter'): Promise<void> {
  for (const content of [`${prefix} prefers tea.`, `${prefix} lives in Lisbon.`, `${prefix} deploys on Fridays.`]) {
    dataOf(await server.call('memory_retain', { content }));
  }
}

describe('memory_export and memory_restore keep to the memoir home', { timeout: 120_000 }, () => {
  it('refuses paths, "..", NUL, hidden, over-long and device names, and writes nothing outside the home', async () => {
    const root = tempDir('memoir-mcp-confine-');
    const home = join(root, 'home');
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'precious.txt'), 'keep me');
    const server = await start(home);
    await storeThree(server);
    const homeBefore = tree(home);
    for (const name of [
      '../../escaped',
      '../escaped',
      'sub/../../escaped',
      'a/b',
      'a\\b',
      join(outside, 'precious.txt'),
      join(outside, 'new.jsonl'),
      '/etc/passwd',
      'x\u0000y',
      '.hidden',
      '..',
      '.',
      '',
      '   ',
      '-rf',
      'a'.repeat(300),
      'é'.repeat(150),
      'nul',
      'COM1.jsonl',
      'name\nwith newline',
    ]) {
      const result = await server.call('memory_export', { name });
      expect(result.isError, JSON.stringify(name)).toBe(true);
      expect(textOf(result), JSON.stringify(name)).toMatch(/^memory_export: name: expected/);
    }
    const oldArgument = await server.call('memory_export', { output_path: join(outside, 'x.jsonl') });
    expect(oldArgument.isError).toBe(true);
    expect(textOf(oldArgument)).toMatch(/output_path/);
    expect(tree(outside)).toEqual(['precious.txt']);
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(tree(root).filter((path) => !path.startsWith('home') && !path.startsWith('outside'))).toEqual([]);
    // Nothing new in the home but, at most, the empty exports folder.
    expect(tree(home).filter((path) => !homeBefore.includes(path) && path !== 'exports')).toEqual([]);
    expect(tree(join(home, 'exports'))).toEqual([]);
    expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(3);
  });

  it('writes by name into <home>/exports only, never over the live store, and keeps an existing export unless told to overwrite', async () => {
    const home = tempDir('memoir-mcp-confine-');
    const server = await start(home);
    await storeThree(server);
    const storeFile = join(home, 'memoir.sqlite');
    const storeSize = statSync(storeFile).size;
    for (const name of ['memoir.sqlite', 'memoir.sqlite-wal', 'memoir.sqlite-journal']) {
      const written = dataOf<{ path: string }>(await server.call('memory_export', { name }));
      expect(written.path).toBe(join(home, 'exports', `${name}.jsonl`));
    }
    expect(readFileSync(storeFile).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    expect(statSync(storeFile).size).toBeGreaterThanOrEqual(storeSize);
    expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(3);

    const first = dataOf<{ path: string; memories: number; file: string }>(
      await server.call('memory_export', { name: 'weekly' }),
    );
    expect(first).toMatchObject({ path: join(home, 'exports', 'weekly.jsonl'), file: 'weekly.jsonl', memories: 3 });
    const before = readFileSync(first.path, 'utf8');
    dataOf(await server.call('memory_retain', { content: 'A fourth memory.' }));
    const again = await server.call('memory_export', { name: 'weekly.jsonl' });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^memory_export: name: a file named weekly\.jsonl exists already/);
    expect(readFileSync(first.path, 'utf8')).toBe(before);
    const replaced = dataOf<{ memories: number }>(
      await server.call('memory_export', { name: 'weekly', overwrite: true }),
    );
    expect(replaced.memories).toBe(4);
    expect(readFileSync(first.path, 'utf8')).not.toBe(before);
    expect(tree(join(home, 'exports')).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('refuses a link in the exports folder and an exports folder that is a link, writing nothing through them', async () => {
    const root = tempDir('memoir-mcp-confine-');
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const victim = join(outside, 'victim.jsonl');
    writeFileSync(victim, 'untouched');

    const home = join(root, 'home');
    mkdirSync(join(home, 'exports'), { recursive: true });
    symlinkSync(victim, join(home, 'exports', 'linked.jsonl'));
    symlinkSync(join(home, 'memoir.sqlite'), join(home, 'exports', 'store.jsonl'));
    symlinkSync(outside, join(home, 'exports', 'dir.jsonl'));
    const server = await start(home);
    await storeThree(server);
    for (const name of ['linked', 'store', 'dir']) {
      for (const overwrite of [false, true]) {
        const result = await server.call('memory_export', { name, overwrite });
        expect(result.isError, name).toBe(true);
        expect(textOf(result)).toMatch(/symbolic link/);
      }
    }
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(tree(outside)).toEqual(['victim.jsonl']);

    const linkedHome = join(root, 'linked-home');
    mkdirSync(linkedHome);
    symlinkSync(outside, join(linkedHome, 'exports'));
    const other = await start(linkedHome);
    await storeThree(other);
    const refused = await other.call('memory_export', { name: 'victim', overwrite: true });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/exports is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(tree(outside)).toEqual(['victim.jsonl']);
    expect(dataOf<{ memories: number }>(await other.call('memory_stats')).memories).toBe(3);
  });

  it.skipIf(!hasPrlimit)(
    'leaves the existing export untouched and no partial file when the write fails mid-stream, and keeps serving',
    async () => {
      const home = tempDir('memoir-mcp-confine-');
      const server = await start(home);
      // Enough to make an export of several hundred KiB.
      for (let index = 0; index < 24; index++) {
        const content = `Memory ${index}: ${`word${index} `.repeat(4_000)}`;
        dataOf(await server.call('memory_retain', { content }));
      }
      const full = dataOf<{ path: string }>(await server.call('memory_export', { name: 'full' }));
      const exportBytes = statSync(full.path).size;
      expect(exportBytes).toBeGreaterThan(400_000);
      const existing = join(home, 'exports', 'kept.jsonl');
      writeFileSync(existing, 'the export made last week\n');

      // The server process may now write no file past 64 KiB: the export fails part-way (EFBIG).
      const pid = (server.client.transport as { pid?: number | null } | undefined)?.pid;
      expect(pid).toBeGreaterThan(0);
      execFileSync('prlimit', ['--pid', String(pid), `--fsize=${64 * 1024}`]);
      const failed = await server.call('memory_export', { name: 'kept', overwrite: true });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/^memory_export: could not write kept\.jsonl: .*nothing was written/);
      const fresh = await server.call('memory_export', { name: 'fresh' });
      expect(fresh.isError).toBe(true);

      expect(readFileSync(existing, 'utf8')).toBe('the export made last week\n');
      expect(tree(join(home, 'exports')).sort()).toEqual(['full.jsonl', 'kept.jsonl']);
      expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(24);
    },
  );

  it('exports the scope the server was started with, and nothing of another user', async () => {
    const home = tempDir('memoir-mcp-confine-');
    const ben = await start(home, ['--user', 'ben']);
    await storeThree(ben, 'Ben');
    await ben.close();
    const ana = await start(home, ['--user', 'ana']);
    await storeThree(ana, 'Ana');
    const exported = dataOf<{ path: string; memories: number }>(await ana.call('memory_export', { name: 'ana' }));
    expect(exported.memories).toBe(3);
    const text = readFileSync(exported.path, 'utf8');
    expect(text).toContain('Ana prefers tea.');
    expect(text).not.toContain('Ben');
  });

  it('restores only a backup of <home>/backups, by its file name, never a path or a link elsewhere', async () => {
    const root = tempDir('memoir-mcp-confine-');
    const home = join(root, 'home');
    const server = await start(home);
    await storeThree(server);
    const backup = dataOf<{ path: string; file: string }>(await server.call('memory_backup', { name: 'mine' }));
    expect(backup.path).toBe(join(home, 'backups', backup.file));
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const foreign = join(outside, backup.file);
    writeFileSync(foreign, readFileSync(backup.path));
    symlinkSync(foreign, join(home, 'backups', 'linked.tar.gz'));
    for (const name of [
      foreign,
      `../../outside/${backup.file}`,
      '../backups/x.tar.gz',
      'linked.tar.gz',
      'missing.tar.gz',
    ]) {
      const result = await server.call('memory_restore', { backup: name, confirm: true });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toMatch(/^memory_restore: backup: /);
    }
    dataOf(await server.call('memory_retain', { content: 'Written after the backup.' }));
    const restored = await server.call('memory_restore', { backup: backup.path, confirm: true });
    expect(textOf(restored)).toContain('Restored 3 memories');
  });
});
