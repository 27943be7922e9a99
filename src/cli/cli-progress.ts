/** A progress bar on stderr for long imports, exports and reindexes. */
import type { CliOutput } from './cli-context.js';

/** Below this many items a bar would only flicker; the summary line is enough. */
export const PROGRESS_THRESHOLD = 1000;
const REDRAW_MS = 100;
const BAR_WIDTH = 30;

/** A progress display; all methods are no-ops when it is disabled. */
export interface Progress {
  /** Report `done` of `total` (total may be unknown). */
  update(done: number, total?: number): void;
  /** Remove the bar, leaving the line clean for the summary. */
  finish(): void;
}

/**
 * A bar drawn in place on `stream` when it is a terminal and `total` exceeds
 * {@link PROGRESS_THRESHOLD}; nothing otherwise, so logs and pipes stay clean.
 */
export function createProgress(stream: CliOutput, label: string, now: () => number = Date.now): Progress {
  let drawn = false;
  let lastDraw = 0;
  return {
    update(done, total) {
      if (!stream.isTTY || total === undefined || total <= PROGRESS_THRESHOLD) return;
      const time = now();
      if (drawn && time - lastDraw < REDRAW_MS && done < total) return;
      lastDraw = time;
      const ratio = Math.min(1, total > 0 ? done / total : 0);
      const filled = Math.round(ratio * BAR_WIDTH);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
      const percent = `${Math.floor(ratio * 100)}`.padStart(3);
      stream.write(`\r\x1b[2K${label} ${bar} ${percent}% ${done}/${total}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** A progress display whose label changes with the phase of the work (restore: checking, backing up, restoring). */
export interface PhasedProgress {
  /** Report `done` of `total` in `phase`; a new phase starts a new bar. */
  update(phase: string, done: number, total: number): void;
  /** Remove the bar. */
  finish(): void;
}

/**
 * {@link createProgress} for work in phases: one bar at a time, labelled with its phase, on a
 * terminal only and for more than {@link PROGRESS_THRESHOLD} items.
 */
export function createPhasedProgress(stream: CliOutput, now: () => number = Date.now): PhasedProgress {
  let phase: string | undefined;
  let bar: Progress | undefined;
  return {
    update(next, done, total) {
      if (next !== phase) {
        bar?.finish();
        phase = next;
        bar = createProgress(stream, next, now);
      }
      bar?.update(done, total);
    },
    finish() {
      bar?.finish();
    },
  };
}

/** Nothing is shown for work that ends within this long: a line would only flicker. */
export const ACTIVITY_DELAY_MS = 1000;
const ACTIVITY_REDRAW_MS = 250;

/**
 * For work whose size is not known ahead (indexing a workspace): `label… 3.2 s` redrawn in place
 * on `stream` while it runs, once it has run {@link ACTIVITY_DELAY_MS}; on a terminal only.
 * The timer never keeps the process alive.
 *
 * @param stream - Where to draw (stderr).
 * @param label - What is being done, e.g. `indexing ~/notes`.
 * @returns A handle whose `finish()` removes the line; call it before printing the summary.
 */
export function createActivity(stream: CliOutput, label: string, now: () => number = Date.now): { finish(): void } {
  if (!stream.isTTY) return { finish() {} };
  const started = now();
  let drawn = false;
  const timer = setInterval(() => {
    const elapsed = now() - started;
    if (elapsed < ACTIVITY_DELAY_MS) return;
    stream.write(`\r\x1b[2K${label}… ${(elapsed / 1000).toFixed(1)} s`);
    drawn = true;
  }, ACTIVITY_REDRAW_MS);
  timer.unref?.();
  return {
    finish() {
      clearInterval(timer);
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
