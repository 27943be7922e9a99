/** Human-readable output of `memoir history` and `memoir correct`: the versions of a fact as a table. */
import type { MemoryHistory } from '../core/versions/versions-api.js';
import { type Column, DEFAULT_WIDTH, formatTable, oneLine } from './cli-format.js';

const HISTORY_COLUMNS: Column[] = [
  { header: 'from' },
  { header: 'until' },
  { header: 'id' },
  { header: 'content', max: 60 },
  { header: 'reason' },
];

// A date alone when the time is midnight (most facts carry only a day), else date and minute.
function when(iso: string): string {
  return iso.slice(11, 23) === '00:00:00.000' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * The versions of a fact, oldest first: from, until (`now` while true), id, content and why
 * it stopped being true; then which version is current and which one was asked about.
 */
export function formatHistory(history: MemoryHistory, width = DEFAULT_WIDTH): string {
  const rows = history.versions.map((version) => [
    when(version.from),
    version.until === null ? 'now' : when(version.until),
    version.memory.id === history.current ? `${version.memory.id} *` : version.memory.id,
    version.memory.content,
    version.reason ?? (version.memory.supersededBy ? `superseded by ${version.memory.supersededBy}` : ''),
  ]);
  const { lines } = formatTable(HISTORY_COLUMNS, rows, width);
  const count = history.versions.length;
  const current =
    history.current === null ? 'no version is current (every one was invalidated)' : `* current: ${history.current}`;
  return [...lines, '', `${count} version${count === 1 ? '' : 's'}; ${oneLine(current)}.`].join('\n');
}
