import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OpinionEvidence, smallMoveBound, updateConfidence } from '../../src/core/reflect/opinion-rule.js';

const evidence = fc.record({
  source: fc.constantFrom(
    'memory/2025-11-20.md',
    'memory/2025-11-24.md',
    'memory/2025-11-27.md',
    'bank/world.md',
    'm1',
    'm2',
  ),
  direction: fc.constantFrom<'support' | 'contradict'>('support', 'contradict'),
  strength: fc.double({ min: 0, max: 1, noNaN: true }),
});
const confidence = fc.double({ min: 0, max: 1, noNaN: true });

describe('the opinion confidence rule', () => {
  it('is bounded: stays in 0..1 and moves by a small step unless a big drop was allowed', () => {
    fc.assert(
      fc.property(confidence, fc.array(evidence, { maxLength: 12 }), (c, items) => {
        const { confidence: next, bigDrop } = updateConfidence(c, items);
        expect(next).toBeGreaterThanOrEqual(0);
        expect(next).toBeLessThanOrEqual(1);
        if (!bigDrop) expect(Math.abs(next - c)).toBeLessThanOrEqual(smallMoveBound(c));
      }),
    );
  });

  it('is monotone: more support never lowers it, more contradiction never raises it', () => {
    fc.assert(
      fc.property(confidence, fc.array(evidence, { maxLength: 10 }), evidence, (c, items, extra) => {
        const before = updateConfidence(c, items).confidence;
        const after = updateConfidence(c, [...items, extra]).confidence;
        if (extra.direction === 'support') expect(after).toBeGreaterThanOrEqual(before);
        else expect(after).toBeLessThanOrEqual(before);
      }),
    );
  });

  it('does not depend on the order of evidence', () => {
    fc.assert(
      fc.property(
        confidence,
        fc
          .array(evidence, { maxLength: 10 })
          .chain((items) => fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length }))),
        (c, [items, shuffled]) => {
          expect(updateConfidence(c, shuffled).confidence).toBe(updateConfidence(c, items).confidence);
        },
      ),
    );
  });

  it('one source repeating itself counts once; a big drop needs three strong independent contradictions', () => {
    const againFromOneFile: OpinionEvidence[] = Array.from({ length: 5 }, () => ({
      source: 'memory/2025-11-20.md',
      direction: 'contradict',
      strength: 1,
    }));
    expect(updateConfidence(0.9, againFromOneFile).confidence).toBe(
      updateConfidence(0.9, againFromOneFile.slice(0, 1)).confidence,
    );
    const two = updateConfidence(0.9, [
      { source: 'a', direction: 'contradict', strength: 1 },
      { source: 'b', direction: 'contradict', strength: 1 },
    ]);
    expect(two.bigDrop).toBe(false);
    expect(two.confidence).toBeGreaterThan(0.84);
    const three = updateConfidence(0.9, [
      { source: 'a', direction: 'contradict', strength: 1 },
      { source: 'b', direction: 'contradict', strength: 0.9 },
      { source: 'c', direction: 'contradict', strength: 0.85 },
    ]);
    expect(three.bigDrop).toBe(true);
    expect(three.confidence).toBeLessThan(0.8);
    expect(updateConfidence(0.5, [{ source: 'a', direction: 'support', strength: 1 }]).confidence).toBe(0.574);
  });
});
