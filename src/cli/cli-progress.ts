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
