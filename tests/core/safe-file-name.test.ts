import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSafeFileName, MAX_FILE_NAME_BYTES, safeFileName } from '../../src/core/utils/safe-file-name.js';
import { tempDir } from '../helpers/stores.js';

// Names from data (entities, titles) become one path segment every file system takes.

const HOSTILE = [
  '../../x',
  '..',
  '.',
  '',
  '   ',
  '/etc/passwd',
  'C:\\Windows\\system32',
  '\\\\server\\share',
  'a\0b',
  'tab\there',
  'line\nbreak',
  'CON',
  'nul.txt',
  'com1',
  'LPT9.md',
  'trailing. ',
  '.hidden',
  'right\u202Eleft',
  'lone\uD800surrogate',
  'x'.repeat(1000),
  '\u{1F600}'.repeat(100),
  'é'.repeat(300),
  'a<b>c:d"e|f?g*h',
];

describe('safeFileName', () => {
  it('keeps ordinary names as they are', () => {
    for (const name of ['Peter', 'warelay', 'Node.js', "Peter's café", 'The Castle', '日本語'])
      expect(safeFileName(name)).toBe(name);
  });

  it('makes .., absolute paths, NUL, control, reserved and over-long names one bounded, non-empty segment', () => {
    for (const name of HOSTILE) {
      const safe = safeFileName(name);
      expect(safe, JSON.stringify(name)).not.toBe('');
      expect(safe).not.toMatch(/[/\\:*?"<>|]/);
      expect(safe.includes('..')).toBe(false);
      expect([...safe].some((char) => char.charCodeAt(0) < 0x20 || char === '\u202E')).toBe(false);
      expect(/^[\s.]|[\s.]$/.test(safe)).toBe(false);
      expect(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(safe)).toBe(false);
      expect(Buffer.byteLength(safe)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
      expect(isSafeFileName(safe)).toBe(true);
      expect(safeFileName(safe)).toBe(safe);
    }
  });

  it('two names that differ only in what was removed or cut off never share a file', () => {
    const names = [...HOSTILE, 'a/b', 'a_b', 'a\\b', 'a:b', `${'a'.repeat(200)}1`, `${'a'.repeat(200)}2`, 'CON', 'con'];
    const safe = new Set(names.map((name) => safeFileName(name)));
    expect(safe.size).toBe(new Set(names).size);
  });

  it('every safe name can be created, and lands directly in its folder', () => {
    const folder = join(tempDir('memoir-safe-names-'), 'pages');
    mkdirSync(folder);
    for (const name of HOSTILE) writeFileSync(join(folder, `${safeFileName(name)}.md`), name);
    expect(readdirSync(folder)).toHaveLength(new Set(HOSTILE.map((name) => safeFileName(name))).size);
  });
});
