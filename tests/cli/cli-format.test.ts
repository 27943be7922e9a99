import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  formatBytes,
  formatMemoryDetails,
  formatRecall,
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

  it('counts emoji the way terminals draw them: 🚀, ❤️ and 👍🏽 take two columns', () => {
    expect(displayWidth('🚀')).toBe(2);
    expect(displayWidth('❤️')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('🇩🇪')).toBe(2);
    // Cut between graphemes: the skin tone stays with its hand.
    expect(truncate('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
  });

  it('keeps columns aligned after a cell with a wide emoji', () => {
    const { lines } = formatTable(
      [{ header: 'tag' }, { header: 'text' }],
      [
        ['🚀 ship', 'launch day'],
        ['plain', 'ordinary'],
      ],
      80,
    );
    const column = (line: string, word: string) => displayWidth(line.slice(0, line.indexOf(word)));
    expect(column(lines[1]!, 'launch')).toBe(column(lines[2]!, 'ordinary'));
    expect(column(lines[0]!, 'text')).toBe(column(lines[2]!, 'ordinary'));
  });

  it('says when memories matched but none fit the token budget', () => {
    const empty = { results: [], droppedForBudget: 0, totalTokens: 0 } as unknown as Parameters<typeof formatRecall>[0];
    expect(formatRecall(empty)).toBe('No memories match.');
    const dropped = { ...empty, droppedForBudget: 8 } as typeof empty;
    expect(formatRecall(dropped, 120, 10)).toBe('8 memories matched but none fit in 10 tokens; raise --token-budget.');
    expect(formatRecall({ ...empty, droppedForBudget: 1 } as typeof empty, 120, 5)).toBe(
      '1 memory matched but it does not fit in 5 tokens; raise --token-budget.',
    );
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
