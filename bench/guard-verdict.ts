// The guard's verdict, apart from any timing so that a test can hold it: each measured ratio
// against the ratio recorded in bench/guard-baseline.json, with a fixed allowance.

/** How much worse than the recorded ratio a measure may be before the guard fails. */
export const ALLOWED_FACTOR = 1.5;

/** A ratio the guard measured: memoir against a baseline of the same run. */
export interface MeasuredRatio {
  /** The key of the ratio in the recorded file. */
  name: string;
  /** memoir / baseline, as the measure defines it. */
  ratio: number;
  /** `higher`: a rate ratio (retain), `lower`: a time ratio (recall). */
  better: 'higher' | 'lower';
}

/** The contents of bench/guard-baseline.json. */
export interface RecordedRatios {
  /** ISO date of the run that recorded the ratios. */
  recordedAt: string;
  /** CPU, cores, memory, Node version of that run. */
  machine: string;
  /** Why these ratios were recorded (or changed). */
  why: string;
  /** Each measure's ratio, by name. */
  ratios: Record<string, number>;
}

/** One line of the guard's table. */
export interface GuardVerdict {
  name: string;
  now: number | null;
  recorded: number | null;
  /** The worst ratio allowed: recorded × factor for time, recorded ÷ factor for rates. */
  limit: number | null;
  better: 'higher' | 'lower' | null;
  verdict: 'ok' | 'worse' | 'not recorded' | 'not measured' | 'invalid';
}

/**
 * Each measured ratio against its recorded one. A measure fails when it is more than `factor`
 * times worse; it also fails when it has no record, is not a positive finite number, or when a
 * recorded ratio was not measured at all — so that the guard cannot stop guarding unseen.
 */
export function judgeRatios(
  measured: readonly MeasuredRatio[],
  recorded: Readonly<Record<string, number>>,
  factor = ALLOWED_FACTOR,
): { verdicts: GuardVerdict[]; exitCode: 0 | 1 } {
  const verdicts: GuardVerdict[] = measured.map(({ name, ratio, better }) => {
    const was = Object.hasOwn(recorded, name) ? recorded[name]! : null;
    const valid = (value: number | null) => value !== null && Number.isFinite(value) && value > 0;
    if (!valid(ratio)) return { name, now: ratio, recorded: was, limit: null, better, verdict: 'invalid' };
    if (was === null) return { name, now: ratio, recorded: null, limit: null, better, verdict: 'not recorded' };
    if (!valid(was)) return { name, now: ratio, recorded: was, limit: null, better, verdict: 'invalid' };
    const limit = better === 'lower' ? was * factor : was / factor;
    const worse = better === 'lower' ? ratio > limit : ratio < limit;
    return { name, now: ratio, recorded: was, limit, better, verdict: worse ? 'worse' : 'ok' };
  });
  const names = new Set(measured.map((measure) => measure.name));
  for (const [name, was] of Object.entries(recorded)) {
    if (!names.has(name)) {
      verdicts.push({ name, now: null, recorded: was, limit: null, better: null, verdict: 'not measured' });
    }
  }
  return { verdicts, exitCode: verdicts.every((line) => line.verdict === 'ok') ? 0 : 1 };
}

/** The guard's table, in Markdown: measure, ratio now, ratio recorded, allowed, verdict. */
export function formatVerdicts(verdicts: readonly GuardVerdict[], factor = ALLOWED_FACTOR): string {
  const number = (value: number | null) => (value === null || !Number.isFinite(value) ? '—' : value.toFixed(3));
  const allowed = (line: GuardVerdict) =>
    line.limit === null ? '—' : `${line.better === 'lower' ? '≤' : '≥'} ${number(line.limit)}`;
  return [
    `| measure | ratio now | ratio recorded | allowed (${factor}× worse) | verdict |`,
    '|---|---:|---:|---:|---|',
    ...verdicts.map(
      (line) =>
        `| ${line.name} | ${number(line.now)} | ${number(line.recorded)} | ${allowed(line)} | ${line.verdict === 'ok' ? 'ok' : `**${line.verdict.toUpperCase()}**`} |`,
    ),
  ].join('\n');
}
