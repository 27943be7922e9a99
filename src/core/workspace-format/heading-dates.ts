/** The dates a file's headings state (`## 2025-11-27`, `# Nov 27, 2025`), which date the lines under them. */
import { type StatedRange, statedTime } from './stated-range.js';

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/**
 * For each 1-based line of `text`, the range stated by the nearest heading above it that
 * states one, counting only the headings it sits under (a `###` under `## 2025-11-27` is
 * dated by it; the next `##` ends it). Headings inside fenced code are text, not headings.
 */
export function headingDates(text: string): (line: number) => StatedRange | undefined {
  const lines = text.split(/\r?\n/);
  const stack: Array<{ level: number; range: StatedRange | undefined }> = [];
  // The range in force from each line on, recorded where it changes.
  const changes: Array<{ line: number; range: StatedRange | undefined }> = [];
  let fence: string | null = null;
  let current: StatedRange | undefined;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    if (fence !== null) {
      if (raw.trim().startsWith(fence)) fence = null;
      continue;
    }
    const open = FENCE.exec(raw);
    if (open) {
      fence = open[1]!;
      continue;
    }
    const heading = HEADING.exec(raw);
    if (!heading) continue;
    const level = heading[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    const stated = statedTime(heading[2]!);
    stack.push({ level, range: stated && 'range' in stated ? stated.range : undefined });
    const range = [...stack].reverse().find((entry) => entry.range !== undefined)?.range;
    if (range !== current) {
      changes.push({ line: index + 1, range });
      current = range;
    }
  }
  return (line) => {
    let found: StatedRange | undefined;
    for (const change of changes) {
      if (change.line > line) break;
      found = change.range;
    }
    return found;
  };
}
