import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { clientsClosedAfterEach } from '../helpers/clients.js';

// on / once / off are a door too: a wrong event name or a listener that is not a function
// is the caller's mistake and answers with a ValidationError naming the field, never the
// emitter's TypeError, and never a subscription that silently waits for an event that never comes.

const client = clientsClosedAfterEach();

describe('event listeners', () => {
  it.each(['on', 'once', 'off'] as const)('%s refuses a listener that is not a function, naming it', (method) => {
    const memory = client();
    const call = () => (memory[method] as (event: unknown, listener: unknown) => unknown)('error', 5);
    expect(call).toThrow(ValidationError);
    try {
      call();
    } catch (error) {
      expect((error as ValidationError).field).toBe('listener');
      expect((error as Error).message).toMatch(/expected a function/);
    }
  });

  it.each(['on', 'once', 'off'] as const)(
    '%s refuses an unknown event name, naming it and the known ones',
    (method) => {
      const memory = client();
      for (const event of ['memory:retaind', '', 42, null, Symbol('x')]) {
        const call = () => (memory[method] as (event: unknown, listener: unknown) => unknown)(event, () => {});
        expect(call).toThrow(ValidationError);
        try {
          call();
        } catch (error) {
          expect((error as ValidationError).field).toBe('event');
          expect((error as Error).message).toMatch(/memory:retained/);
        }
      }
    },
  );

  it('a known event and a function still subscribe, fire and unsubscribe', async () => {
    const memory = client();
    const seen: number[] = [];
    const listener = (event: { memories: unknown[] }) => void seen.push(event.memories.length);
    expect(memory.on('memory:retained', listener)).toBe(memory);
    await memory.retain('first');
    memory.off('memory:retained', listener);
    await memory.retain('second');
    memory.once('memory:retained', listener);
    await memory.retain(['third', 'fourth']);
    await memory.retain('fifth');
    expect(seen).toEqual([1, 2]);
  });
});
