import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, eventually, textOf } from './mcp-harness.js';

// `memoir mcp --workspace <dir>` restarted by its host, driven by the official MCP client: the
// daily reflect's last run is kept in <dir>/.memory/schedule.json, so a server restarted three
// hours after a run does not reflect at start, and one restarted 25 hours after it reflects at
// once. Fails if the schedule counts a day from each start (it then never runs for a host
// that restarts the server daily) or if a restart within the day reflects again.

const HOUR = 3_600_000;

function workspace(): string {
  const root = join(tempDir('memoir-mcp-catch-up-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  const today = new Date().toISOString().slice(0, 10);
  writeFileSync(
    join(root, 'memory', `${today}.md`),
    `# ${today}\n\n## Retain\n\n- W @Peter: Peter keeps the spare keys in the blue drawer.\n`,
  );
  return root;
}

const logFile = (root: string) => join(root, '.memory', 'schedule.json');
const keepLastRun = (root: string, at: number) => {
  mkdirSync(join(root, '.memory'), { recursive: true });
  writeFileSync(logFile(root), JSON.stringify({ version: 1, lastRuns: { reflect: new Date(at).toISOString() } }));
};
const lastRun = (root: string): number => Date.parse(JSON.parse(readFileSync(logFile(root), 'utf8')).lastRuns.reflect);
const page = (root: string) => join(root, 'bank', 'entities', 'Peter.md');

describe('memoir mcp --workspace: the daily reflect across restarts', () => {
  it('does not reflect at a restart within the day, and catches up at a restart a day later', async () => {
    const root = workspace();
    const home = tempDir('memoir-mcp-catch-up-home-');

    // Restarted three hours after the last run: nothing is due.
    const ranAt = Date.now() - 3 * HOUR;
    keepLastRun(root, ranAt);
    const early = await connectMemoirMcp({
      home,
      args: ['--workspace', root, '--no-watch', '--reflect-catch-up', '0'],
    });
    try {
      expect(textOf(await early.call('memory_recall', { query: 'spare keys', k: 3 }))).toContain('blue drawer');
      await sleep(1500);
      expect(existsSync(page(root))).toBe(false);
      expect(lastRun(root)).toBe(ranAt);
    } finally {
      await early.close();
    }

    // Restarted 25 hours after it: the missed run happens at start, without any call.
    keepLastRun(root, Date.now() - 25 * HOUR);
    const started = Date.now();
    const late = await connectMemoirMcp({ home, args: ['--workspace', root, '--no-watch', '--reflect-catch-up', '0'] });
    try {
      await eventually(
        async () => existsSync(page(root)) && lastRun(root) >= started,
        (done) => done,
        20_000,
      );
      expect(readFileSync(page(root), 'utf8')).toContain('blue drawer');
    } finally {
      await late.close();
    }
  }, 90_000);
});
