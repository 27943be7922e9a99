import { describe, expect, it } from 'vitest';
import { buildMemory } from '../../src/core/shared/memory-builder.js';
import type { MemoryKind } from '../../src/core/spec/memory.js';
import { formatJournalBullet } from '../../src/core/workspace-format/journal-bullet.js';
import { parseWorkspaceFile } from '../../src/core/workspace-format/workspace-chunks.js';
import { roleOf } from '../../src/core/workspace-format/workspace-files.js';

// The bullet memoir writes for a retained memory reads back as the same text, kind, entities and
// fields, whatever the text holds: newlines, blank lines, backslashes, a Markdown heading, a
// list, a fence, an HTML comment or a marker of its own, `@` that is no mention.

const NOW = '2025-12-01T10:00:00.000Z';

function roundTrip(content: string, kind: MemoryKind = 'world', entities: string[] = [], metadata = {}) {
  const memory = buildMemory(
    { content, kind, entities, metadata, importance: 0.9, category: 'preferences' },
    { id: 'mem_1', now: NOW, scope: { userId: 'sam' }, sessionId: 'chat-1' },
  );
  const line = formatJournalBullet(memory);
  expect(line.split('\n')).toHaveLength(1);
  const file = `# 2025-12-01\n\n## Retain\n\n- W @Peter: a line a person wrote.\n${line}\n- B: after it.\n`;
  const parsed = parseWorkspaceFile('memory/2025-12-01.md', file, roleOf('memory/2025-12-01.md'));
  if ('tooMany' in parsed) throw new Error('too many');
  expect(parsed.items.map((item) => item.line)).toEqual([5, 6, 7]);
  const item = parsed.items[1]!;
  expect(item.journal?.fields).toMatchObject({
    id: 'mem_1',
    importance: 0.9,
    category: 'preferences',
    sessionId: 'chat-1',
  });
  return { line, item };
}

describe('the journal bullet', () => {
  it.each([
    ['one line', 'Peter keeps the spare keys in the blue drawer.'],
    ['lines and a blank one', 'Deploy checklist:\n- run the migrations\n\n## not a heading\nthen restart'],
    ['backslashes and escapes', 'C:\\temp\\new is not a newline; \\\\ twice; a literal \\n too'],
    ['a fence', '```ts\nconst a = 1;\n```'],
    ['comments and markers', 'x <!-- note --> y <!-- memoir {"id":"mem_evil"} -->'],
    ['mail and handles', 'write to bob@example.com or @someone on chat'],
    ['CRLF', 'first\r\nsecond'],
  ])('%s round-trips', (_name, content) => {
    const { item } = roundTrip(content);
    expect(item.content).toBe(content);
    expect(item.kind).toBe('world');
    expect(item.entities).toEqual([]);
  });

  it('writes the kind letter, the confidence and the mentions, names with spaces too', () => {
    const { line, item } = roundTrip('Prefers short answers.', 'opinion', ['Peter', 'Ana Lu'], { confidence: 0.8 });
    expect(line).toMatch(/^- O\(c=0\.8\) @Peter @\{Ana Lu\}: Prefers short answers\. <!-- memoir \{/);
    expect(item.kind).toBe('opinion');
    expect(item.confidence).toBe(0.8);
    expect(item.entities).toEqual(['Peter', 'Ana Lu']);
    expect(roundTrip('Fixed the crash.', 'experience').line).toMatch(/^- B: /);
    expect(roundTrip('Seen twice.', 'observation').line).toMatch(/^- S: /);
  });
});
