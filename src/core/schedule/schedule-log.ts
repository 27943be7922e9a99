/**
 * When each of a client's schedules last ran, kept in a small JSON file so that a process
 * restarted before the next run (an MCP server its host restarts, a gateway restarted each
 * night) catches up instead of counting from its own start again.
 *
 * The file is a cache, never a record anyone needs: a missing, unreadable or foreign file
 * reads as "never ran", which means "run now". That is why it may live in a workspace's
 * derived `.memory/` folder, which can be deleted at any time.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../shared/files/atomic-write.js';

/** The file's name: `<root>/.memory/schedule.json` for a workspace, `<home>/schedule.json` otherwise. */
export const SCHEDULE_LOG_FILE = 'schedule.json';

/** Last runs of a client's schedules, by name (a schedule and the scope it runs for). */
export interface ScheduleLog {
  /** Where the runs are kept; undefined when they are kept in memory only (no sensible place). */
  readonly file: string | undefined;
  /** Epoch ms of the last finished run of `name`, or undefined when none is known. */
  lastRun(name: string): number | undefined;
  /** Record a finished run of `name` at `atMs`. Never rejects: a failed write is reported to `onError`. */
  record(name: string, atMs: number): Promise<void>;
}

interface LogFile {
  version: 1;
  /** ISO time of each schedule's last finished run. */
  lastRuns: Record<string, string>;
}

function readLog(file: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LogFile> | null;
    const runs = parsed?.lastRuns;
    if (parsed?.version !== 1 || typeof runs !== 'object' || runs === null || Array.isArray(runs)) return {};
    const out: Record<string, string> = {};
    for (const [name, at] of Object.entries(runs))
      if (typeof at === 'string' && Number.isFinite(Date.parse(at))) out[name] = at;
    return out;
  } catch {
    // Missing or not ours: every schedule reads as never run, so each runs now.
    return {};
  }
}

/**
 * The schedule log kept in `file` (created when first written, folder and all), or in memory
 * when `file` is undefined. Each read goes to the file, so two processes sharing a workspace
 * see each other's runs; a write re-reads the file first and replaces it atomically.
 */
export function scheduleLogAt(file: string | undefined, onError: (error: unknown) => void): ScheduleLog {
  const memory: Record<string, string> = {};
  return {
    file,
    lastRun(name) {
      const at = (file === undefined ? memory : readLog(file))[name];
      return at === undefined ? undefined : Date.parse(at);
    },
    async record(name, atMs) {
      const at = new Date(atMs).toISOString();
      if (file === undefined) {
        memory[name] = at;
        return;
      }
      try {
        const lastRuns = { ...readLog(file), [name]: at };
        await mkdir(dirname(file), { recursive: true });
        const log: LogFile = { version: 1, lastRuns };
        await writeFileAtomic(file, `${JSON.stringify(log, null, 2)}\n`);
      } catch (error) {
        onError(error);
      }
    },
  };
}

/** A schedule's name in the log: the schedule, and the scope it runs for when there is one. */
export function scheduleName(
  schedule: string,
  scope: Readonly<Record<string, string | undefined>> | undefined,
): string {
  const parts = Object.entries(scope ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`);
  return parts.length === 0 ? schedule : `${schedule} (${parts.join(', ')})`;
}
