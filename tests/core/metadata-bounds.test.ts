import { describe, expect, it } from 'vitest';
import { MAX_METADATA_DEPTH } from '../../src/core/spec/memory.js';
import { ValidationError } from '../../src/index.js';
import { STORES, storeAndClient } from '../helpers/stores.js';

// Issue 24, item 7: metadata nested 100,000 levels deep, or containing itself, is refused at
// the door with a ValidationError naming the field and the documented bound, never a
// RangeError from the runtime, and nothing is written.

function nested(levels: number, array = false): unknown {
  let value: unknown = { leaf: 1 };
  for (let index = 0; index < levels; index++) value = array ? [value] : { a: value };
  return value;
}
const cyclic = () => {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
};

async function refusal(call: () => Promise<unknown>): Promise<ValidationError> {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe.each(STORES)('metadata bounds (%s)', (_name, makeStore) => {
  it('retain, retainAsync and update refuse deep or cyclic metadata with a ValidationError naming the field', async () => {
    const { memory } = storeAndClient(makeStore);
    const { ids } = await memory.retain('a memory to update');
    for (const metadata of [nested(100_000), { list: nested(100_000, true) }]) {
      const error = await refusal(() => memory.retain({ content: 'x', metadata: metadata as never }));
      expect(error.field).toMatch(/^input\.metadata/);
      expect(error.message).toContain(`at most ${MAX_METADATA_DEPTH} levels`);
      const patched = await refusal(() => memory.update(ids[0]!, { metadata: metadata as never }));
      expect(patched.field).toMatch(/^patch\.metadata/);
      expect(() => memory.retainAsync({ content: 'x', metadata: metadata as never })).toThrow(ValidationError);
    }
    const error = await refusal(() => memory.retain({ content: 'x', metadata: cyclic() as never }));
    expect(error.field).toBe('input.metadata.self');
    expect(error.message).toMatch(/circular/);
    await refusal(() => memory.update(ids[0]!, { metadata: { wrap: cyclic() } as never }));
    await memory.flush();
    expect((await memory.list()).map((item) => item.content)).toEqual(['a memory to update']);
    expect((await memory.get(ids[0]!)).metadata).toEqual({});
    await memory.close();
  });
});
