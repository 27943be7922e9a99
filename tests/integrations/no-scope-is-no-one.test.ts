import { generateText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createInMemoryStore, createMemory, type MemoryClient, ValidationError } from '../../src/index.js';
import { memoryMiddleware, memoryTools } from '../../src/integrations/ai-sdk/index.js';
import { MemoirStore } from '../../src/integrations/langgraph/index.js';
import { quiet } from '../helpers/stores.js';
import { generateModel, systemSeen, textStep } from './ai-sdk/ai-sdk-harness.js';

// A request with no signed-in user resolves to `{}` or `{ userId: undefined }`. Read as "no
// scope", that was every user's memories: bob's PIN reached an anonymous AI SDK call's prompt, and
// the exchange was stored where later unscoped calls recalled it. At every door an empty scope is
// refused; only leaving the scope out on purpose (and, at the AI SDK door, saying so with
// requireScope: false) gives a client or a call that sees every scope.

const BOB = { userId: 'bob' };
const anonymous = { userId: undefined };

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

let memory: MemoryClient;
afterEach(async () => {
  await memory?.close();
});

async function withBobsPin(): Promise<MemoryClient> {
  memory = createMemory({ store: createInMemoryStore(), logger: quiet });
  await memory.retain({ content: 'My bank card PIN is 4827.', scope: BOB });
  return memory;
}

describe('no scope is never every scope', () => {
  it.each([
    ['{}', {}],
    ['{ userId: undefined }', anonymous],
  ])('createMemory({ scope: %s }) is a ConfigError naming scope, not the admin client', (_label, scope) => {
    const error = thrown(() => createMemory({ store: createInMemoryStore(), logger: quiet, scope }));
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).field).toMatch(/^scope/);
  });

  it('the AI SDK middleware: a resolver that finds no user refuses the call; bob’s PIN reaches no prompt and nothing is stored', async () => {
    await withBobsPin();
    const inner = generateModel(textStep('Your PIN is 4827.'));
    const middleware = memoryMiddleware({
      memory,
      scope: ({ params }) => ({ userId: params.headers?.['x-user-id'] }),
    });
    const model = wrapLanguageModel({ model: inner, middleware });
    const error = await generateText({ model, prompt: 'What is my PIN?' }).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe('scope');
    expect(inner.doGenerateCalls).toHaveLength(0);
    await memory.flush();
    expect((await memory.list()).map((item) => item.content)).toEqual(['My bank card PIN is 4827.']);
  });

  it('the AI SDK middleware: an empty static scope, or none on an unscoped client, is refused when it is made', () => {
    const store = createInMemoryStore();
    memory = createMemory({ store, logger: quiet });
    for (const options of [{ memory }, { memory, scope: {} }, { memory, scope: anonymous }]) {
      const error = thrown(() => memoryMiddleware(options));
      expect(ConfigError.isInstance(error), JSON.stringify(Object.keys(options))).toBe(true);
      expect((error as ConfigError).field).toMatch(/^scope/);
    }
  });

  it('the AI SDK middleware: requireScope: false is the admin door, on purpose', async () => {
    await withBobsPin();
    const inner = generateModel(textStep('Noted.'));
    const model = wrapLanguageModel({
      model: inner,
      middleware: memoryMiddleware({ memory, requireScope: false, capture: false }),
    });
    await generateText({ model, prompt: 'What is the PIN?' });
    expect(systemSeen(inner)).toContain('4827');
  });

  it('the AI SDK tools: an empty scope, or none on an unscoped client, is refused', () => {
    memory = createMemory({ store: createInMemoryStore(), logger: quiet });
    for (const options of [{}, { scope: {} }, { scope: anonymous }]) {
      const error = thrown(() => memoryTools(memory, options));
      expect(ConfigError.isInstance(error), JSON.stringify(options)).toBe(true);
      expect((error as ConfigError).field).toMatch(/^scope/);
    }
    expect(Object.keys(memoryTools(memory, { requireScope: false })).length).toBeGreaterThan(0);
  });

  it('the LangGraph store: scope {} or { userId: undefined } is refused', () => {
    for (const scope of [{}, anonymous]) {
      const error = thrown(() => new MemoirStore({ home: '/nonexistent-home-never-opened', scope }));
      expect(ValidationError.isInstance(error) || ConfigError.isInstance(error), JSON.stringify(scope)).toBe(true);
    }
  });

  it('a scope view (what the OpenClaw and AI SDK tools run on): a scope naming no one is refused', () => {
    memory = createMemory({ store: createInMemoryStore(), logger: quiet });
    const error = thrown(() => memory.withScope({}));
    expect(ValidationError.isInstance(error)).toBe(true);
  });
});
