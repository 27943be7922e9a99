import * as lancedb from '@lancedb/lancedb';
import * as arrow from 'apache-arrow';
import { makeMemory } from 'memoir/testing';
import { describe, expect, it } from 'vitest';
import { memoryRowsTable } from '../../src/adapters/lancedb/lancedb-arrow.js';
import { digestBatch, digestOfRow } from '../../src/adapters/lancedb/lancedb-row-digest.js';
import { type MemoryRow, memoryToRow } from '../../src/adapters/lancedb/lancedb-rows.js';
import { freshPaths } from '../helpers/stores.js';

// The catch-up of memoir's LanceDB index compares a digest of each row it reads (from Arrow's
// buffers) with the digest of the row as the store wrote it (from the row's values): the two
// must agree for every value, or every row the store wrote itself would look changed.

const nextDir = freshPaths('lancedb-digest', '');

const rows: MemoryRow[] = [
  memoryToRow(makeMemory({ id: 'plain', content: 'walnut harvest' }), null),
  memoryToRow(
    makeMemory({
      id: 'scoped',
      content: 'Zoë met 北京 friends 🎉',
      scope: { userId: 'u', agentId: 'a', namespace: 'n' },
      sessionId: 's-1',
      bookmarked: true,
      validTo: '2030-01-01T00:00:00.000Z',
    }),
    null,
  ),
  { ...memoryToRow(makeMemory({ id: 'empty-session', content: 'x' }), null), source_session: '' },
];

const digestsOf = (list: readonly MemoryRow[]) => list.map((row) => digestOfRow(row));

describe('the LanceDB row digest', () => {
  it('is the same from a row and from the Arrow batch LanceDB reads back', async () => {
    const db = await lancedb.connect(nextDir());
    const table = await db.createTable('memories', memoryRowsTable(arrow, rows, 4));
    const read: number[] = [];
    const columns = ['id', 'lexical_terms', 'kind', 'category', 'agent_id', 'user_id', 'namespace'];
    const more = ['source_session', 'bookmarked', 'occurred_at', 'valid_from', 'valid_to'];
    for await (const batch of table.query().select([...columns, ...more])) {
      const ids = batch.getChild('id')!;
      const digests = digestBatch(batch);
      for (let i = 0; i < batch.numRows; i++) read[rows.findIndex((row) => row.id === ids.get(i))] = digests[i]!;
    }
    expect(read).toEqual(digestsOf(rows));
    table.close();
    db.close();
  });

  it('changes with every field it covers, and tells null from empty text', () => {
    const base = rows[1]!;
    const variants: MemoryRow[] = [
      { ...base, lexical_terms: `${base.lexical_terms} more` },
      { ...base, kind: 'other' },
      { ...base, category: 'other' },
      { ...base, agent_id: null },
      { ...base, user_id: 'v' },
      { ...base, namespace: '' },
      { ...base, source_session: null },
      { ...base, bookmarked: false },
      { ...base, occurred_at: base.occurred_at + 1 },
      { ...base, valid_from: base.valid_from - 1 },
      { ...base, valid_to: null },
    ];
    const digests = new Set([digestOfRow(base), ...digestsOf(variants)]);
    expect(digests.size).toBe(variants.length + 1);
    // Text that runs into the next field is not the same row.
    expect(digestOfRow({ ...base, agent_id: 'ab', user_id: 'c' })).not.toBe(
      digestOfRow({ ...base, agent_id: 'a', user_id: 'bc' }),
    );
  });
});
