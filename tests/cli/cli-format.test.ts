import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  formatBytes,
  formatMemoryDetails,
  formatTable,
  oneLine,
  truncate,
} from '../../src/cli/cli-format.js';
import { makeMemory } from '../contracts/memory-fixtures.js';

const ESC = String.fromCharCode(27);

describe('cli-format', () => {
  it('keeps terminal escapes, other controls and bidi overrides out of output', () => {
    expect(oneLine(`red ${ESC}[31mtext${ESC}[0m\u202e\u0007 and\n\tmore`)).toBe('red [31mtext[0m and more');
    const details = formatMemoryDetails(makeMemory({ content: `line one\n${ESC}]0;pwned\u0007line two` }));
    expect(details).not.toContain(ESC);
    expect(details).toContain('line one\n            ]0;pwnedline two');
  });

  it('measures and truncates by terminal columns', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(truncate('日本語テキスト', 7)).toBe('日本語…');
    expect(truncate('😀😀😀', 5)).toBe('😀😀…');
    expect(truncate('short', 10)).toBe('short');
  });

  it('aligns columns and fits the last one to the width', () => {
    const { lines, offsets } = formatTable(
      [{ header: 'id' }, { header: 'n', align: 'right' }, { header: 'text' }],
      [
        ['a', '1', 'x'.repeat(100)],
        ['bbbb', '22', 'short'],
      ],
      40,
    );
    expect(lines).toEqual(['id     n  text', `a      1  ${'x'.repeat(29)}…`, 'bbbb  22  short']);
    expect(offsets).toEqual([0, 6, 10]);
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(5 * 1024 * 1024 + 100)).toBe('5.0 MB');
  });
});
