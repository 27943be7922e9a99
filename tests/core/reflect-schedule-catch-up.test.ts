import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createFixedClock } from '../../src/testing/index.js';
import { fixtureCopy, workspaceClient } from '../helpers/workspace.js';

// The scheduled reflect keeps its last run in the workspace (.memory/schedule.json), so a
// process restarted before a day has passed does not count a day from its own start again,
// and one started when a run is due reflects at once. Each client here is a "process": a
// new client over the same workspace and its SQLite index. Fails if a due run waits for the
// interval (what the schedule did when it counted from the client's creation), if a run
// that is not due happens at start, if a run is not kept, or if a client closed before the
// catch-up delay (a script, a one-shot command) reflects on its way out.

const T0 = Date.parse('2025-12-03T12:00:00Z');
const HOUR = 3_600_000;
const logFile = (root: string) => join(root, '.memory', 'schedule.json');
const lastRun = (root: string): string | undefined =>
  existsSync(logFile(root)) ? JSON.parse(readFileSync(logFile(root), 'utf8')).lastRuns?.reflect : undefined;
const peterPage = (root: string) => join(root, 'bank', 'entities', 'Peter.md');

/** A "process" over the workspace at `root`, its clock at `now`, reflecting daily (the default). */
function start(root: string, now: number) {
  const clock = createFixedClock(now);
  const memory = workspaceClient(root, { clock, reflect: { every: 'daily', catchUpDelayMs: 0 } });
  const errors: unknown[] = [];
  memory.on('error', (event) => errors.push(event.error));
  return { memory, errors };
}

describe('the scheduled reflect across restarts', () => {
  it('reflects at once when no run is known, not again after a restart within the day, and catches up when a day has passed', async () => {
    const root = fixtureCopy();

    // A client closed within the default catch-up delay (a minute) leaves the run to the next.
    const brief = workspaceClient(root, { clock: createFixedClock(T0), reflect: { every: 'daily' } });
    await brief.workspace.index();
    await sleep(300);
    await brief.close();
    expect(lastRun(root)).toBeUndefined();
    expect(readFileSync(peterPage(root), 'utf8')).not.toContain('<!-- memoir:facts');

    // First start: nothing kept, so a run is due now (losing the file means "run now").
    const first = start(root, T0);
    await first.memory.workspace.index();
    await expect.poll(() => lastRun(root), { timeout: 10_000 }).toBe(new Date(T0).toISOString());
    expect(readFileSync(peterPage(root), 'utf8')).toContain('<!-- memoir:facts');
    expect(first.errors).toEqual([]);
    await first.memory.close();

    // Restarted three hours later: the last run was three hours ago, so none is due.
    rmSync(peterPage(root));
    const second = start(root, T0 + 3 * HOUR);
    await second.memory.workspace.index();
    await sleep(500);
    expect(lastRun(root)).toBe(new Date(T0).toISOString());
    expect(existsSync(peterPage(root))).toBe(false);
    await second.memory.close();

    // Restarted 25 hours after the last run: the run the process missed happens at start.
    const third = start(root, T0 + 25 * HOUR);
    await expect.poll(() => lastRun(root), { timeout: 10_000 }).toBe(new Date(T0 + 25 * HOUR).toISOString());
    expect(readFileSync(peterPage(root), 'utf8')).toContain('<!-- memoir:facts');
    expect(third.errors).toEqual([]);
    await third.memory.close();
  });

  it('counts an interval from the last run kept, and a run on demand is kept too', async () => {
    const root = fixtureCopy();
    // A run on demand 30 minutes before this start; the schedule is every hour.
    mkdirSync(join(root, '.memory'), { recursive: true });
    const demand = workspaceClient(root, { clock: createFixedClock(T0 - 0.5 * HOUR) });
    await demand.reflect();
    await demand.close();
    expect(lastRun(root)).toBe(new Date(T0 - 0.5 * HOUR).toISOString());

    const clock = createFixedClock(T0);
    const memory = workspaceClient(root, { clock, reflect: { every: 1, catchUpDelayMs: 0 } });
    await sleep(500);
    expect(lastRun(root)).toBe(new Date(T0 - 0.5 * HOUR).toISOString());
    await memory.close();

    // A log in the past by more than the interval (written by hand, as another process would): due at once.
    writeFileSync(logFile(root), JSON.stringify({ version: 1, lastRuns: { reflect: '2025-12-01T00:00:00.000Z' } }));
    const late = workspaceClient(root, { clock: createFixedClock(T0), reflect: { every: 1, catchUpDelayMs: 0 } });
    await expect.poll(() => lastRun(root), { timeout: 10_000 }).toBe(new Date(T0).toISOString());
    await late.close();

    // A file that is not ours reads as "never ran": a run now, and the file is ours again.
    writeFileSync(logFile(root), 'not json');
    const fresh = workspaceClient(root, {
      clock: createFixedClock(T0 + HOUR / 2),
      reflect: { every: 1, catchUpDelayMs: 0 },
    });
    await expect.poll(() => lastRun(root), { timeout: 10_000 }).toBe(new Date(T0 + HOUR / 2).toISOString());
    await fresh.close();
  });
});
