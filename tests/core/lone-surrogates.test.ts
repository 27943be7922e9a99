import { describe, expect, it } from 'vitest';
import { createMemory, type Memory, type MemoryClient, ValidationError } from '../../src/index.js';
import { collect, quiet, STORES, storeAndClient, tempDir } from '../helpers/stores.js';

// Whatever text `retain` accepts comes back exactly, on every store: lone surrogates (which
// UTF-8 columns cannot hold), the escape mark memoir uses for them, text that already looks
// like an escape, and valid pairs. Through get, list, recall, filters, export/import and
// backup/restore. Ids and scope fields, which every store uses as keys, refuse a lone
// surrogate with a ValidationError naming the field.

const MARK = '\uFDD0';
const ODD: Array<[label: string, text: string]> = [
  ['a lone high surrogate inside', 'a\uD800b'],
  ['a lone low surrogate alone', '\uDC00'],
  ['a valid pair', '😀'],
  ['reversed pair', '\uDE00\uD83D'],
  ['a high surrogate at the end', 'end\uDBFF'],
  ['the escape mark', `x${MARK}y`],
  ['text that looks like an escape', `${MARK}D800 ${MARK}FDD0 ${MARK}zz`],
  ['an escape mark before a lone surrogate', `${MARK}\uD800\uDC00\uDC00`],
];

/** A memory input carrying `text` in every text field a store keeps. */
function carrying(text: string, word: string) {
  return {
    content: `Remember ${word} ${text} well.`,
    abstract: `${word} ${text}`,
    overview: `overview ${text}`,
    context: `context ${text}`,
    category: `cat${text}`,
    entities: [`Entity${text}`, 'Plain'],
    sessionId: `session${text}`,
    source: { file: `notes/${text}.md`, url: `https://example.com/${text}`, messageId: `m${text}` },
    metadata: { note: text, [`key${text}`]: [text] },
  };
}

const comparable = (memory: Memory | null | undefined) => {
  if (!memory) return memory;
  const { accessCount: _a, lastAccessedAt: _l, ...rest } = memory;
  return rest;
};

const lines = (memory: MemoryClient) => collect(memory.export());

describe.each(STORES)('Lone surrogates round-trip exactly (%s store)', (_name, makeStore) => {
  const home = tempDir('memoir-surrogates-');
  const client = () => storeAndClient(makeStore, { backupDirectory: `${home}/${Math.random()}` });

  it.each(ODD)('keeps %s through retain, get, list, recall and filters', async (_label, text) => {
    const { memory } = client();
    const input = carrying(text, 'zebracorn');
    const { ids } = await memory.retain(input);
    const { ids: otherIds } = await memory.retain({ content: 'Unrelated note about a toaster.' });
    const id = ids[0]!;
    await memory.invalidate(otherIds[0]!, { reason: `wrong ${text}` });

    const got = await memory.get(id);
    expect(got).not.toBeNull();
    expect(got!.content).toBe(input.content);
    expect(got!.abstract).toBe(input.abstract);
    expect(got!.overview).toBe(input.overview);
    expect(got!.context).toBe(input.context);
    expect(got!.category).toBe(input.category);
    expect(got!.entities).toEqual(input.entities);
    expect(got!.sessionId).toBe(input.sessionId);
    expect(got!.source).toEqual(input.source);
    expect(got!.metadata).toEqual(input.metadata);

    const invalidated = await memory.store.get('memory', [otherIds[0]!]);
    expect(invalidated[0]?.invalidationReason).toBe(`wrong ${text}`);

    const listed = (await memory.list()).find((each) => each.id === id);
    expect(comparable(listed)).toEqual(comparable(got));

    const recalled = await memory.recall('zebracorn');
    expect(comparable(recalled.results.find((result) => result.memory.id === id)?.memory)).toEqual(comparable(got));

    // Filters on the escaped columns find it, and only it.
    const byCategory = await memory.store.list('memory', { filter: { categories: [input.category] } });
    expect(byCategory.map((each) => each.id)).toEqual([id]);
    const bySession = await memory.store.list('memory', { filter: { sessionId: input.sessionId } });
    expect(bySession.map((each) => each.id)).toEqual([id]);
    const byEntity = await memory.store.list('memory', { filter: { entities: [input.entities[0]!] } });
    expect(byEntity.map((each) => each.id)).toEqual([id]);
    await memory.close();
  });

  it('keeps two texts apart that differ only in their lone surrogates', async () => {
    const { memory } = client();
    const { ids } = await memory.retain([
      { content: 'pin a\uD800', category: 'c\uD800', sessionId: 's\uD800', entities: ['E\uD800'] },
      { content: 'pin a\uD801', category: 'c\uD801', sessionId: 's\uD801', entities: ['E\uD801'] },
    ]);
    const got = await memory.store.get('memory', ids);
    expect(got.map((each) => each.content)).toEqual(['pin a\uD800', 'pin a\uD801']);
    expect(got[0]!.fingerprint).not.toBe(got[1]!.fingerprint);
    for (const [index, suffix] of ['\uD800', '\uD801'].entries()) {
      const filter = { categories: [`c${suffix}`], sessionId: `s${suffix}`, entities: [`E${suffix}`] };
      expect((await memory.store.list('memory', { filter })).map((each) => each.id)).toEqual([ids[index]]);
    }
    await memory.close();
  });

  it('keeps every odd text through export → import and backup → clearAll → restore', async () => {
    const { memory } = client();
    await memory.retain(ODD.map(([, text], index) => carrying(text, `word${index}`)));
    const before = await lines(memory);
    const parsed = before.map((line) => JSON.parse(line) as { memory?: Memory });
    const contents = parsed.flatMap((each) => (each.memory ? [each.memory.content] : []));
    for (const [index, [, text]] of ODD.entries()) expect(contents).toContain(`Remember word${index} ${text} well.`);

    const fresh = client().memory;
    await fresh.import(before);
    expect(await lines(fresh)).toEqual(before);
    await fresh.close();

    const backup = await memory.backup('odd-text');
    await memory.clearAll({ confirm: true });
    await memory.restore(backup.path, { confirm: true });
    expect(await lines(memory)).toEqual(before);
    await memory.close();
  });

  it('refuses a lone surrogate in an id or a scope field, naming the field', async () => {
    const { store, memory } = client();
    const refused = async (promise: Promise<unknown>, field: RegExp) => {
      const error = await promise.then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(ValidationError.isInstance(error), `expected a ValidationError, got ${String(error)}`).toBe(true);
      expect((error as Error).message).toMatch(field);
    };
    await refused(memory.retain({ id: 'id\uD800', content: 'x' }), /id/);
    await refused(memory.retain({ content: 'x', scope: { userId: 'u\uDC00' } }), /userId/);
    await refused(memory.retain({ content: 'x', scope: { agentId: '\uD800' } }), /agentId/);
    await refused(memory.retain({ content: 'x', scope: { namespace: 'n\uD800' } }), /namespace/);
    expect(() => createMemory({ store, logger: quiet, scope: { userId: 'u\uD800' } })).toThrow(/userId/);
    // A valid pair is an ordinary character.
    const { ids } = await memory.retain({ id: 'id😀', content: 'x', scope: { userId: 'u😀' } });
    expect(ids).toEqual(['id😀']);
    expect((await memory.get('id😀'))?.scope).toEqual({ userId: 'u😀' });
    await memory.close();
  });
});
