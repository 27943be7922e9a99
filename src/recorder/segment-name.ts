import { basename } from 'node:path';

// A segment's name says when it was opened: ffmpeg's -strftime writes the wall-clock time in
// its local time zone and, where the C library's %z gives a numeric offset (glibc, macOS),
// that offset too, so a segment found on disk after a restart still knows when it was recorded.

/** The name of a segment: `rec-YYYYMMDD-HHMMSS[±HHMM]-<run id>.mp4`. */
export const SEGMENT_FILE = /^rec-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})([+-]\d{4})?-[0-9a-f]+\.mp4$/;

/**
 * The strftime pattern of a segment's file name. Windows' C library writes a zone name for %z
 * ("W. Europe Standard Time"), so gdigrab names carry no offset and are read as local time.
 */
export function segmentNamePattern(runId: string, withOffset: boolean): string {
  return `rec-%Y%m%d-%H%M%S${withOffset ? '%z' : ''}-${runId}.mp4`;
}

/**
 * When recording of a segment started (epoch ms), read from its name: exact with an offset,
 * the local time of this machine without one (the time zone ffmpeg wrote it in). Undefined
 * for a name that is not a segment's, or a time that does not exist.
 */
export function segmentStartOf(path: string): number | undefined {
  const match = SEGMENT_FILE.exec(basename(path));
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offset = match[7];
  let ms: number;
  if (offset) {
    const sign = offset.startsWith('-') ? -1 : 1;
    const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));
    ms = Date.UTC(year, month - 1, day, hour, minute, second) - minutes * 60_000;
    const check = new Date(ms + minutes * 60_000);
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || check.getUTCHours() !== hour)
      return undefined;
  } else {
    const local = new Date(year, month - 1, day, hour, minute, second);
    if (local.getMonth() !== month - 1 || local.getDate() !== day) return undefined;
    ms = local.getTime();
  }
  return Number.isFinite(ms) ? ms : undefined;
}
