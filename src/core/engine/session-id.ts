import { randomBytes } from 'node:crypto';

/** A new session id for a run starting at `now`: `session_YYYYMMDD_HHMMSS_xxxx` (UTC). */
export function generateSessionId(now: number): string {
  const iso = new Date(now).toISOString();
  const date = iso.slice(0, 10).replace(/-/g, '');
  const time = iso.slice(11, 19).replace(/:/g, '');
  return `session_${date}_${time}_${randomBytes(2).toString('hex')}`;
}
