import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { clientsClosedAfterEach } from '../helpers/clients.js';

const client = clientsClosedAfterEach();

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ValidationError.isInstance(error), `expected a ValidationError, got ${String(error)}`).toBe(true);
  return error as ValidationError;
}

describe('unknown fields other memory libraries use get a hint', () => {
  it('userId, user_id, agentId and namespace at the top level point at scope', async () => {
    const memory = client();
    const bob = await rejection(memory.retain({ content: 'x', userId: 'bob' } as never));
    expect(bob.message).toContain('unknown field(s) "userId": put it in scope: { userId: … }');
    expect(bob.suggestion).toContain('scope');
    expect((await rejection(memory.retain({ content: 'x', user_id: 'bob' } as never))).message).toContain(
      'put it in scope: { userId: … }',
    );
    expect((await rejection(memory.retain({ content: 'x', agentId: 'a' } as never))).message).toContain(
      'scope: { agentId: … }',
    );
    expect((await rejection(memory.retain({ content: 'x', namespace: 'n' } as never))).message).toContain(
      'scope: { namespace: … }',
    );
    const both = await rejection(memory.retain({ content: 'x', user_id: 'u', agent_id: 'a' } as never));
    expect(both.message).toContain('"user_id": put it in scope: { userId: … }; "agent_id": put it in scope');
  });

  it('applies to conversations, batches, nested scopes and recall options', async () => {
    const memory = client();
    const conversation = await rejection(
      memory.retain({ messages: [{ role: 'user', content: 'hi' }], user_id: 'bob' } as never),
    );
    expect(conversation.field).toBe('input');
    expect(conversation.message).toContain('scope: { userId: … }');
    const nested = await rejection(memory.retain({ content: 'x', scope: { user_id: 'bob' } } as never));
    expect(nested.field).toBe('input.scope');
    expect(nested.message).toContain('did you mean userId?');
    const batch = await rejection(memory.retain([{ content: 'a' }, { content: 'b', run_id: 'r1' }] as never));
    expect(batch.field).toBe('input[1]');
    expect(batch.message).toContain('did you mean sessionId?');
    const recall = await rejection(memory.recall('x', { limit: 3, user_id: 'u' } as never));
    expect(recall.message).toContain('"limit": did you mean k?');
    expect(recall.message).toContain('"user_id": put it in scope');
  });

  it('an unknown field with no known counterpart keeps the plain message', async () => {
    const memory = client();
    const error = await rejection(memory.retain({ content: 'x', colour: 'red' } as never));
    expect(error.message).toMatch(/unknown field\(s\) "colour"$/);
    expect(error.suggestion).toBe('Check the field named in the message against the API reference.');
  });

  it('an unknown field named like an Object member (constructor, toString, __proto__) is a plain ValidationError', async () => {
    const memory = client();
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const error = await rejection(memory.retain({ content: 'x', [key]: 1 } as never));
      expect(error.message).toMatch(new RegExp(`unknown field\\(s\\) "${key}"$`));
    }
    const recall = await rejection(memory.recall('x', JSON.parse('{"__proto__": 1, "constructor": 2}') as never));
    expect(recall.message).toContain('unknown field(s)');
  });
});
