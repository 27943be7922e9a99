import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, runMemoir, textOf } from '../integrations/mcp-harness.js';

// The store is a setting (`--store`, MEMOIR_STORE, "store" in config.json): the real `memoir`
// executable and `memoir mcp` keep memories in a real LanceDB directory under the home, and a
// bad value is an error naming the setting.

interface Recalled {
  results: Array<{ memory: { content: string } }>;
}

const contents = (stdout: string) => (JSON.parse(stdout) as Recalled).results.map((result) => result.memory.content);

describe('the store setting', () => {
  it('memoir --store lancedb retains and recalls in <home>/lancedb; MEMOIR_STORE and config.json pick it too', async () => {
    const home = tempDir('memoir-store-lancedb-');
    const retained = await runMemoir(
      home,
      '--store',
      'lancedb',
      'retain',
      'Mara keeps the spare keys under the blue pot.',
    );
    expect(retained.code, retained.stderr).toBe(0);
    expect(existsSync(join(home, 'lancedb'))).toBe(true);
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(false);

    const flag = await runMemoir(home, '--store', 'lancedb', 'recall', 'where are the spare keys', '--json');
    expect(flag.code, flag.stderr).toBe(0);
    expect(contents(flag.stdout)).toContain('Mara keeps the spare keys under the blue pot.');

    const variable = await runMemoir(
      { home, env: { MEMOIR_STORE: 'lancedb' } },
      'recall',
      'where are the spare keys',
      '--json',
    );
    expect(variable.code, variable.stderr).toBe(0);
    expect(contents(variable.stdout)).toContain('Mara keeps the spare keys under the blue pot.');

    // The SQLite store is another store: it holds none of it.
    const sqlite = await runMemoir(home, 'recall', 'where are the spare keys', '--json');
    expect(sqlite.code, sqlite.stderr).toBe(0);
    expect(contents(sqlite.stdout)).toEqual([]);

    writeFileSync(join(home, 'config.json'), JSON.stringify({ store: 'lancedb' }));
    const file = await runMemoir(home, 'recall', 'where are the spare keys', '--json');
    expect(file.code, file.stderr).toBe(0);
    expect(contents(file.stdout)).toContain('Mara keeps the spare keys under the blue pot.');
    // The flag wins over the file.
    const over = await runMemoir(home, '--store', 'sqlite', 'recall', 'where are the spare keys', '--json');
    expect(contents(over.stdout)).toEqual([]);
  }, 120_000);

  it('doctor and --debug say which store and where the setting came from', async () => {
    const home = tempDir('memoir-store-doctor-');
    const env = { MEMOIR_STORE: 'lancedb' };
    expect((await runMemoir({ home, env }, 'retain', 'The boiler is serviced every October.')).code).toBe(0);
    const doctor = await runMemoir({ home, env }, 'doctor');
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain(`${join(home, 'lancedb')}: lancedb store — 1 memory`);
    expect(doctor.stdout).toContain('store = "lancedb" (env MEMOIR_STORE)');
    const json = JSON.parse((await runMemoir({ home, env }, '--json', 'doctor')).stdout) as {
      store: string;
      settings: Array<{ setting: string; value: unknown; source: unknown }>;
    };
    expect(json.store).toBe('lancedb');
    expect(json.settings.find((each) => each.setting === 'store')).toEqual({
      setting: 'store',
      value: 'lancedb',
      source: { kind: 'env', variable: 'MEMOIR_STORE' },
    });
    const repair = await runMemoir({ home, env }, 'doctor', '--repair');
    expect(repair.code).toBe(2);
    expect(repair.stderr).toContain('store is lancedb');

    const debug = await runMemoir(home, '--store', 'lancedb', '--debug', 'stats');
    expect(debug.code, debug.stderr).toBe(0);
    expect(debug.stderr).toContain('setting store = "lancedb" (flag --store)');
  }, 120_000);

  it('a bad store is an error naming the setting, from a flag, the environment or the file', async () => {
    const home = tempDir('memoir-store-bad-');
    const flag = await runMemoir(home, '--json', '--store', 'mongo', 'stats');
    expect(flag.code).toBe(2);
    const flagError = JSON.parse(flag.stderr) as { error: { message: string; field?: string } };
    expect(flagError.error.message).toContain('store must be one of "sqlite", "lancedb"');
    expect(flagError.error.field).toBe('--store');

    const variable = await runMemoir({ home, env: { MEMOIR_STORE: 'mongo' } }, '--json', 'stats');
    expect(variable.code).toBe(1);
    const variableError = JSON.parse(variable.stderr) as { error: { code: string; message: string; field: string } };
    expect(variableError.error).toMatchObject({ code: 'CONFIG_INVALID', field: 'store' });
    expect(variableError.error.message).toContain('got "mongo" from env MEMOIR_STORE');

    writeFileSync(join(home, 'config.json'), JSON.stringify({ store: 'memory' }));
    const file = await runMemoir(home, 'stats');
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('store must be one of "sqlite", "lancedb"');
    expect(file.stderr).toContain(join(home, 'config.json'));
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(false);
  }, 60_000);

  it('memoir mcp --store lancedb serves memories kept in <home>/lancedb', async () => {
    const home = tempDir('memoir-store-mcp-');
    const server = await connectMemoirMcp({ home, args: ['--store', 'lancedb'] });
    try {
      const stored = dataOf<{ id: string }>(
        await server.call('memory_store', { content: 'The staging database is restored every Sunday night.' }),
      );
      expect(stored.id).toMatch(/^mem_/);
      const recalled = await server.call('memory_recall', { query: 'when is the staging database restored' });
      expect(textOf(recalled)).toContain('every Sunday night');
    } finally {
      await server.close();
    }
    expect(existsSync(join(home, 'lancedb'))).toBe(true);
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(false);
    // The CLI finds it there too: one store, whichever door opened it.
    const cli = await runMemoir({ home, env: { MEMOIR_STORE: 'lancedb' } }, 'recall', 'staging database', '--json');
    expect(contents(cli.stdout)).toContain('The staging database is restored every Sunday night.');
  }, 120_000);
});
