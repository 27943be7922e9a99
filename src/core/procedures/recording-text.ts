import type { RecordedSpan } from './recording-types.js';

// The words the seed's agent gets back: "On Feb 10, the user: 1) … 2) …". The same sentence
// is the memory recall finds, the tool's text and the CLI's, so every door says the same.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** What the sentence is made of: a subset of a recording result. */
export interface StepsSource {
  /** The clip's wall-clock span, when known. */
  recordedAt: RecordedSpan | null;
  /** The steps, in order. */
  steps: readonly string[];
  /** What the clip shows. */
  summary: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `Feb 10, 2026 at 14:30 UTC` (UTC, so every door and every machine says the same). */
export function recordedDay(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()} at ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** `m:ss` of an offset into a video. */
export function videoOffset(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
}

/** One line, the seed's form: "On Feb 10, 2026 at 14:30 UTC, the user: 1) … 2) …". */
export function stepsSentence(source: StepsSource): string {
  const when = source.recordedAt
    ? `On ${recordedDay(source.recordedAt.start)}`
    : 'In a screen recording (date unknown)';
  // A step is one line; a model answer that slipped a newline in must not break the numbering.
  const steps = source.steps.map((step, i) => `${i + 1}) ${step.replace(/\s+/g, ' ').trim()}`);
  if (steps.length > 0) return `${when}, the user: ${steps.join(' ')}`;
  const summary = source.summary.replace(/\s+/g, ' ').trim();
  return summary ? `${when}, the screen showed: ${summary} (no single steps seen)` : `${when}: no steps seen`;
}
