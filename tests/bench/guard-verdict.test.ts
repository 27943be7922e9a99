import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALLOWED_FACTOR, formatVerdicts, judgeRatios, type RecordedRatios } from '../../bench/guard-verdict.js';

// The guard's verdict without any timing: `npm run bench:guard` fails CI only through this
// function, so a change that made it pass everything would otherwise go unseen.
const recorded = { 'retain (÷ raw inserts)': 0.5, 'recall p50 (÷ raw queries)': 0.4 };
const measure = (retain: number, recall: number) => [
  { name: 'retain (÷ raw inserts)', ratio: retain, better: 'higher' as const },
  { name: 'recall p50 (÷ raw queries)', ratio: recall, better: 'lower' as const },
];

describe('the speed guard verdict', () => {
  it('passes ratios within 1.5× of the record, better or worse', () => {
    expect(ALLOWED_FACTOR).toBe(1.5);
    for (const [retain, recall] of [
      [0.5, 0.4],
      [0.9, 0.1],
      [0.34, 0.59],
    ] as const) {
      const { verdicts, exitCode } = judgeRatios(measure(retain, recall), recorded);
      expect(exitCode).toBe(0);
      expect(verdicts.map((line) => line.verdict)).toEqual(['ok', 'ok']);
    }
  });

  it('fails a rate more than 1.5× lower than recorded', () => {
    const { verdicts, exitCode } = judgeRatios(measure(0.33, 0.4), recorded);
    expect(exitCode).toBe(1);
    expect(verdicts[0]).toMatchObject({ verdict: 'worse', now: 0.33, recorded: 0.5 });
    expect(verdicts[0]!.limit).toBeCloseTo(0.5 / 1.5, 10);
    expect(verdicts[1]!.verdict).toBe('ok');
  });

  it('fails a time ratio more than 1.5× higher than recorded', () => {
    const { verdicts, exitCode } = judgeRatios(measure(0.5, 0.61), recorded);
    expect(exitCode).toBe(1);
    expect(verdicts[1]).toMatchObject({ verdict: 'worse', now: 0.61, recorded: 0.4 });
    expect(verdicts[1]!.limit).toBeCloseTo(0.6, 10);
  });

  it('holds the boundary: exactly 1.5× worse still passes', () => {
    expect(judgeRatios(measure(0.5 / 1.5, 0.4 * 1.5), recorded).exitCode).toBe(0);
  });

  it('fails a measure without a record, a record without a measure, and a ratio that is not a positive number', () => {
    const unrecorded = judgeRatios([...measure(0.5, 0.4), { name: 'new', ratio: 1, better: 'lower' }], recorded);
    expect(unrecorded.exitCode).toBe(1);
    expect(unrecorded.verdicts[2]!.verdict).toBe('not recorded');

    const unmeasured = judgeRatios(measure(0.5, 0.4).slice(0, 1), recorded);
    expect(unmeasured.exitCode).toBe(1);
    expect(unmeasured.verdicts[1]).toMatchObject({ name: 'recall p50 (÷ raw queries)', verdict: 'not measured' });

    for (const broken of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY]) {
      const { verdicts, exitCode } = judgeRatios(measure(broken, 0.4), recorded);
      expect(exitCode).toBe(1);
      expect(verdicts[0]!.verdict).toBe('invalid');
    }
    expect(judgeRatios(measure(0.5, 0.4), { ...recorded, 'retain (÷ raw inserts)': 0 }).exitCode).toBe(1);
  });

  it('prints a table with the allowed bound and the verdict of each measure', () => {
    const table = formatVerdicts(judgeRatios(measure(0.2, 0.4), recorded).verdicts);
    expect(table).toContain('| measure | ratio now | ratio recorded | allowed (1.5× worse) | verdict |');
    expect(table).toContain('| retain (÷ raw inserts) | 0.200 | 0.500 | ≥ 0.333 | **WORSE** |');
    expect(table).toContain('| recall p50 (÷ raw queries) | 0.400 | 0.400 | ≤ 0.600 | ok |');
  });

  it('the recorded file says when, where and why, and has a positive ratio for each measure', () => {
    const file = JSON.parse(
      readFileSync(new URL('../../bench/guard-baseline.json', import.meta.url), 'utf8'),
    ) as RecordedRatios;
    expect(file.recordedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(file.machine.length).toBeGreaterThan(0);
    expect(file.why.length).toBeGreaterThan(0);
    const ratios = Object.values(file.ratios);
    expect(ratios.length).toBe(5);
    for (const ratio of ratios) expect(ratio).toBeGreaterThan(0);
  });
});
