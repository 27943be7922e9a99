import { describe, expect, it } from 'vitest';
import { createLanceStore, LANCE_SCHEMA_VERSION } from '../../src/adapters/lancedb/index.js';
import { makeMemory } from '../contracts/memory-fixtures.js';
import { freshPaths } from '../helpers/stores.js';

const nextDir = freshPaths('lancedb-migrations', '');

describe('LanceDB schema migrations', () => {
  it("re-indexes a schema 1 table's memories with a context, so their own words outweigh their neighbours'", async () => {
    const uri = nextDir();
    const store = createLanceStore({ uri, logger: { log() {} } });
    await store.open({ id: 'e', dimensions: 4 });
    await store.put('memory', [
      {
        memory: makeMemory({ id: 'turn', content: 'We adopted a greyhound.', context: 'The weather was mild.' }),
        embedding: null,
      },
      { memory: makeMemory({ id: 'plain', content: 'A greyhound runs fast.' }), embedding: null },
    ]);
    await store.close();

    // Put the table back as schema 1 wrote it: own text once, then the context.
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(uri);
    const memories = await db.openTable('memories');
    await memories.update({ where: "id = 'turn'", values: { lexical_terms: 'adopt greyhound weather mild' } });
    const meta = await db.openTable('memories_meta');
    await meta.update({ where: "key = 'schema_version'", values: { value: '1' } });
    const terms = async (id: string) =>
      (
        (await memories.query().where(`id = '${id}'`).select(['lexical_terms']).toArray()) as Array<{
          lexical_terms: string;
        }>
      )[0]!.lexical_terms;
    expect(await terms('turn')).toBe('adopt greyhound weather mild');

    const reopened = createLanceStore({ uri, logger: { log() {} } });
    await reopened.open({ id: 'e', dimensions: 4 });
    expect(await reopened.check()).toMatchObject({ ok: true, details: { schemaVersion: LANCE_SCHEMA_VERSION } });
    await reopened.close();
    await memories.checkoutLatest();
    expect(await terms('turn')).toBe('adopt greyhound adopt greyhound weather mild');
    expect(await terms('plain')).toBe('greyhound run fast');
    db.close();
  });
});
