import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

// Tests that drive a real program (ffmpeg, Xvfb, …) skip on a machine without it, and say
// which package brings it: `npm test` passes on a bare machine, and `.ci/run` installs them all.

/** The Debian package that brings each program the tests may run. */
const PACKAGES: Record<string, string> = {
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
  Xvfb: 'xvfb',
  xdotool: 'xdotool',
  xprop: 'x11-utils',
  xterm: 'xterm',
  chromium: 'chromium',
};

/** Whether `program` is an executable file on PATH. */
export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/**
 * Why a test that needs `programs` cannot run here, or undefined when all are installed:
 * "needs ffmpeg, Xvfb (apt-get install ffmpeg xvfb)".
 */
export function missingTools(...programs: string[]): string | undefined {
  const missing = programs.filter((program) => !onPath(program));
  if (missing.length === 0) return undefined;
  const packages = [...new Set(missing.map((program) => PACKAGES[program] ?? program))];
  return `needs ${missing.join(', ')} (apt-get install ${packages.join(' ')})`;
}

/** A suite title that carries the reason it was skipped, so the report says why. */
export function titled(title: string, skipReason: string | undefined): string {
  return skipReason === undefined ? title : `${title} — skipped: ${skipReason}`;
}
