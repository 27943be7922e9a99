import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeStoredText, encodeStoredText, isWellFormedText } from '../../src/core/text/stored-text.js';

// The escape SQLite and LanceDB put on free text: reversible for every UTF-16 string, always
// well-formed (so UTF-8 keeps it), and the identity on ordinary text and on data stored before it.

const units = fc.array(
  fc.oneof(
    fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uFDD0', 'D', '8', '0', 'F', 'a', ' ', '😀'),
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  ),
  { maxLength: 40 },
);
const anyText = units.map((parts) => parts.join(''));

describe('stored text escape', () => {
  it('decodes to exactly the original and is always well-formed', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const stored = encodeStoredText(text);
        expect(isWellFormedText(stored)).toBe(true);
        expect(decodeStoredText(stored)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves ordinary text unchanged, both ways', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        fc.pre(!text.includes('\uFDD0'));
        expect(encodeStoredText(text)).toBe(text);
        expect(decodeStoredText(text)).toBe(text);
      }),
    );
    for (const text of ['', 'plain', 'Zoë 😀 東京', 'D800', '\\uD800']) expect(encodeStoredText(text)).toBe(text);
  });

  it('reads a stray mark in data stored before the escape unchanged', () => {
    for (const legacy of ['\uFDD0', 'x\uFDD0y', '\uFDD0zz12', '\uFDD0d800', '\uFDD00041']) {
      expect(decodeStoredText(legacy)).toBe(legacy);
    }
  });

  it('keeps texts that differ only in a lone surrogate apart', () => {
    expect(encodeStoredText('a\uD800')).not.toBe(encodeStoredText('a\uD801'));
    expect(encodeStoredText('\uDC00')).not.toBe(encodeStoredText('\uFFFD'));
  });
});
