import { describe, expect, it } from 'vitest';
import { BoundedLineSplitter, type OversizedLine } from '../../src/integrations/mcp/bounded-lines.js';
import { TopLevelIdScanner } from '../../src/integrations/mcp/top-level-id.js';

// The parts of the stdio reader, on their own: the line splitter that never holds a line over
// the limit, and the scanner that finds a discarded message's id as the bytes stream by.

function scan(text: string, chunk = 3): { id: unknown; hasMethod: boolean } {
  const scanner = new TopLevelIdScanner();
  const bytes = Buffer.from(text);
  for (let index = 0; index < bytes.length; index += chunk) scanner.feed(bytes.subarray(index, index + chunk));
  scanner.finish();
  return { id: scanner.id, hasMethod: scanner.hasMethod };
}

describe('the top-level id scanner', () => {
  it('finds the top-level id wherever it stands, and only the top-level one', () => {
    expect(scan('{"jsonrpc":"2.0","id":7,"method":"x"}')).toEqual({ id: 7, hasMethod: true });
    expect(scan('{"method":"x","params":{"id":99,"a":[{"id":1}]},"id":"abc"}')).toEqual({ id: 'abc', hasMethod: true });
    expect(scan('{"method":"x","params":{"s":"\\"id\\":5,"},"id":-1.5e3}')).toEqual({ id: -1500, hasMethod: true });
    expect(scan('{ "id" : "with \\"quotes\\" and \\\\ slash" , "method" : "m" }')).toEqual({
      id: 'with "quotes" and \\ slash',
      hasMethod: true,
    });
    expect(scan('{"id":null,"method":"x"}')).toEqual({ id: null, hasMethod: true });
    expect(scan('{"id":12}', 1)).toEqual({ id: 12, hasMethod: false });
    expect(scan('{"result":{},"id":3}')).toEqual({ id: 3, hasMethod: false });
  });

  it('reports no id for non-objects, ids that are not strings or numbers, and over-long ids', () => {
    expect(scan('[{"id":1,"method":"x"}]').id).toBeUndefined();
    expect(scan('"id"').id).toBeUndefined();
    expect(scan('{"id":{"nested":1},"method":"x"}').id).toBeUndefined();
    expect(scan('{"id":[1],"method":"x"}').id).toBeUndefined();
    expect(scan('{"id":true,"method":"x"}').id).toBeUndefined();
    expect(scan(`{"id":"${'x'.repeat(5000)}","method":"x"}`).id).toBeUndefined();
    expect(scan('{"idx":1,"ids":2,"method":"x"}').id).toBeUndefined();
  });
});

describe('the bounded line splitter', () => {
  function split(max: number, chunks: string[]) {
    const lines: string[] = [];
    const oversized: OversizedLine[] = [];
    const splitter = new BoundedLineSplitter(max, {
      line: (line) => lines.push(line.toString('utf8')),
      oversized: (info) => oversized.push(info),
    });
    for (const chunk of chunks) splitter.push(Buffer.from(chunk));
    splitter.end();
    return { lines, oversized };
  }

  it('passes lines up to the limit whole, however the chunks fall', () => {
    expect(split(10, ['ab', 'c\nde', 'f\n\n', '0123456789\n', 'tail'])).toEqual({
      lines: ['abc', 'def', '', '0123456789', 'tail'],
      oversized: [],
    });
    expect(split(10, ['{"id":1}\r\n']).lines).toEqual(['{"id":1}\r']);
  });

  it('discards a line over the limit, reporting its size and id, and goes on with the next', () => {
    const { lines, oversized } = split(16, [
      '{"method":"m","params":"',
      'x'.repeat(40),
      '","id":4}\n{"ok":1}\n',
      `{"method":"n","p":"${'y'.repeat(30)}"}`,
    ]);
    expect(lines).toEqual(['{"ok":1}']);
    expect(oversized).toEqual([
      { bytes: 73, id: 4, hasMethod: true },
      { bytes: 51, id: undefined, hasMethod: true },
    ]);
  });
});
