import { describe, expect, it } from 'vitest';
import { createMemory, ValidationError } from '../../src/index.js';
import { createFixedClock, createScriptedLanguageModel, createTestStore } from '../../src/testing/index.js';

const clock = () => createFixedClock('2025-12-03T12:00:00Z');

describe('correcting a fact', () => {
  it('a memory marked as superseding another invalidates it softly; recall puts the current one first and the superseded one below it', async () => {
    const memory = createMemory({ store: createTestStore(), clock: clock() });
    const {
      ids: [berlin],
    } = await memory.retain({ content: 'Peter lives in Berlin.', entities: ['Peter'], occurredAt: '2025-01-10' });
    const {
      ids: [lisbon],
    } = await memory.retain({
      content: 'Peter moved to Lisbon.',
      entities: ['Peter'],
      occurredAt: '2025-11-20',
      supersedes: [berlin!],
    });
    const old = await memory.get(berlin!);
    expect(old).toMatchObject({
      validTo: '2025-11-20T00:00:00.000Z',
      supersededBy: lisbon,
      invalidationReason: `superseded by ${lisbon}`,
    });
    const current = await memory.recall('where does Peter live', { k: 5 });
    expect(current.results.map((result) => result.memory.id)).toEqual([lisbon, berlin]);
    expect(current.results[1]!.breakdown.validity).toEqual({ state: 'superseded', supersededBy: lisbon });
    const asked = await memory.recall('where does Peter live', { k: 5, asOf: '2025-06-01' });
    expect(asked.results.map((result) => result.memory.id)).toEqual([berlin, lisbon]);
    await memory.close();
  });

  it('an unknown id in supersedes is a ValidationError and nothing is written', async () => {
    const memory = createMemory({ store: createTestStore(), clock: clock() });
    const error = await memory
      .retain({ content: 'Peter moved to Lisbon.', supersedes: ['nope'] })
      .catch((reason: unknown) => reason);
    expect(ValidationError.isInstance(error) && error.field).toBe('input.supersedes[0]');
    expect(await memory.list()).toEqual([]);
    await memory.close();
  });

  it("with corrections: 'model', the model names the facts the new one makes untrue", async () => {
    const model = createScriptedLanguageModel((request) => {
      const text = request.messages.at(-1)!.content;
      const berlin = /id (\S+) \([^)]*\): Peter lives in Berlin/.exec(text)?.[1];
      return { text: JSON.stringify({ supersedes: berlin && text.includes('Lisbon') ? [berlin, 'made-up'] : [] }) };
    });
    const memory = createMemory({ store: createTestStore(), clock: clock(), languageModel: model });
    const {
      ids: [berlin],
    } = await memory.retain({ content: 'Peter lives in Berlin.', entities: ['Peter'], occurredAt: '2025-01-10' });
    await memory.retain(
      { content: 'Peter likes jazz.', entities: ['Peter'], occurredAt: '2025-02-01' },
      { corrections: 'model' },
    );
    expect((await memory.get(berlin!))?.validTo).toBeNull();
    const {
      ids: [lisbon],
    } = await memory.retain(
      // A phrasing the supersession rules do not read: the model decides it.
      { content: "Peter's mail now goes to Lisbon.", entities: ['Peter'], occurredAt: '2025-11-20' },
      { corrections: 'model' },
    );
    expect(await memory.get(berlin!)).toMatchObject({ supersededBy: lisbon, validTo: '2025-11-20T00:00:00.000Z' });
    expect(model.calls.at(-1)!.messages[0]!.content).toContain('Peter likes jazz.');
    await memory.close();

    const without = createMemory({ store: createTestStore() });
    await expect(without.retain('x', { corrections: 'model' })).rejects.toThrow(/options\.corrections/);
    await without.close();
  });

  it("with corrections: 'model', what the parser leaves undecided goes to the model with both claims and their subjects", async () => {
    const model = createScriptedLanguageModel((request) => {
      const text = request.messages.at(-1)!.content;
      const braga = /id (\S+) \([^)]*\): Rachel's office is in Braga/.exec(text)?.[1];
      return { text: JSON.stringify({ supersedes: braga ? [braga] : [] }) };
    });
    const memory = createMemory({ store: createTestStore(), clock: clock(), languageModel: model });
    // No entities: the model's candidates are the holders of the claim's subject.
    const {
      ids: [braga],
    } = await memory.retain({ content: "Rachel's office is in Braga.", occurredAt: '2025-01-10' });
    const {
      ids: [porto],
    } = await memory.retain(
      { content: "Rachel's office is in Porto now.", occurredAt: '2025-11-20' },
      { corrections: 'model' },
    );
    const prompt = model.calls.at(-1)!.messages[0]!.content;
    expect(prompt).toContain("Rachel's office is in Porto now. [read as: rachel / attribute of office: porto]");
    expect(prompt).toContain("Rachel's office is in Braga. [read as: rachel / attribute of office: braga]");
    expect((await memory.get(braga!))?.supersededBy).toBe(porto);
    // A fact the parser decides ("lives in", "moved to") is not sent to the model.
    const calls = model.calls.length;
    await memory.retain({ content: 'Rachel moved to Lisbon.', occurredAt: '2025-12-01' }, { corrections: 'model' });
    expect(model.calls).toHaveLength(calls);
    await memory.close();
  });

  it('a model that fails corrects nothing and loses nothing', async () => {
    const model = createScriptedLanguageModel(() => {
      throw new Error('model down');
    });
    const memory = createMemory({
      store: createTestStore(),
      clock: clock(),
      languageModel: model,
      logger: { log() {} },
    });
    const {
      ids: [berlin],
    } = await memory.retain({ content: 'Peter lives in Berlin.', entities: ['Peter'] });
    const { ids } = await memory.retain(
      { content: "Peter's mail now goes to Lisbon.", entities: ['Peter'] },
      { corrections: 'model' },
    );
    expect(ids).toHaveLength(1);
    expect((await memory.get(berlin!))?.validTo).toBeNull();
    await memory.close();
  });
});
