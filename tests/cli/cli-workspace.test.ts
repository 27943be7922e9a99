import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';
import { fixtureCopy } from '../helpers/workspace.js';

// The workspace commands on the hand-written fixture, offline: index, recall --workspace.

const NOW = Date.parse('2025-12-03T12:00:00Z');

async function memoir(argv: string[]) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: tempDir() }, stdin: Readable.from([]), now: () => NOW };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('memoir index / recall --workspace', () => {
  it('indexes the fixture, warns about malformed lines, then re-reads nothing', async () => {
    const root = fixtureCopy();
    const first = await memoir(['index', '--workspace', root, '--json']);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ files: 14, removed: 0 });
    expect(report.changedFiles).toHaveLength(14);
    expect(first.stderr).toContain('memory/2025-11-20.md:11: unknown type prefix "X"');
    const second = await memoir(['index', '--workspace', root]);
    expect(second.stdout).toContain('0 re-read');
  });

  it('recalls with citations, rebuilding a deleted index from the files', async () => {
    const root = fixtureCopy();
    await memoir(['index', '--workspace', root]);
    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const run = await memoir(['recall', 'Baileys', 'crash', 'fix', '--workspace', root, '-k', '2', '--json']);
    expect(run.code).toBe(0);
    const response = JSON.parse(run.stdout);
    expect(response.results[0].citation).toBe('memory/2025-11-27.md#L9');
    const since = await memoir(['recall', 'Peter', '--workspace', root, '--since', '2025-11-30', '--json']);
    const dates: string[] = JSON.parse(since.stdout).results.map(
      (r: { memory: { occurredAt: string } }) => r.memory.occurredAt,
    );
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.every((date) => date >= '2025-11-30')).toBe(true);
    const about = await memoir(['recall', 'tell', 'me', 'about', 'warelay', '--workspace', root, '--json']);
    expect(JSON.parse(about.stdout).intent).toMatchObject({ kind: 'entity', entity: 'warelay' });
    const forced = await memoir([
      'recall',
      'tell',
      'me',
      'about',
      'warelay',
      '--workspace',
      root,
      '--intent',
      'lexical',
      '--json',
    ]);
    expect(JSON.parse(forced.stdout).intent.kind).toBe('lexical');
  });

  it('reflect --since 7d writes entity pages and reports opinions, offline', async () => {
    const root = fixtureCopy();
    const run = await memoir(['reflect', '--workspace', root, '--since', '7d']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Since 2025-11-26: \d+ entity page\(s\) written, \d+ opinion\(s\) moved/);
    expect(run.stdout).toContain('created bank/entities/Andy.md');
    const json = await memoir(['reflect', '--workspace', root, '--since', 'last week', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ since: '2025-11-24T00:00:00.000Z' });
  });
});
