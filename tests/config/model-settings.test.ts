import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withConfiguredOptions } from '../../src/config/config-options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError, createMemory } from '../../src/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { isReflectionRequest, type OpenAILoopback, startOpenAILoopback } from '../helpers/openai-loopback.js';
import { tempDir } from '../helpers/stores.js';

// The model settings as a zero-configuration createMemory() reads them (withConfiguredOptions
// over loadConfig, with an explicit environment here): MEMOIR_MODEL / MEMOIR_BASE_URL become the
// client's chat model on an OpenAI-compatible server (a loopback one speaking its wire format),
// MEMOIR_PROCEDURES_REFLECTION_MODEL the reflecting model, and a model the caller passed wins.

let server: OpenAILoopback;
beforeAll(async () => {
  server = await startOpenAILoopback((request) =>
    isReflectionRequest(request)
      ? {
          title: 'Publish the release notes',
          triggerExamples: ['publish the weekly release notes'],
          steps: ['Read the git log', 'Write NOTES.md', 'Post to Slack'],
          whatWorks: ['Group the changes by component'],
          whatDoesNotWork: [],
          outputFormat: null,
        }
      : { memories: [] },
  );
});
afterAll(async () => {
  await server.close();
});

const TASK = {
  request: 'publish the weekly release notes',
  toolCalls: ['git_log', 'write_file', 'slack_post'],
};

function options(env: Record<string, string>, given = {}) {
  const home = tempDir('memoir-model-settings-');
  const all = { MEMOIR_HOME: home, ...env };
  return withConfiguredOptions({ home, ...given }, loadConfig({ env: all }).config, all);
}

describe('model settings → createMemory options', () => {
  it('MEMOIR_MODEL and MEMOIR_BASE_URL give the client a chat model that writes procedures', async () => {
    const memory = createMemory(options({ MEMOIR_MODEL: 'loopback-chat', MEMOIR_BASE_URL: server.baseURL }));
    const before = server.requests.length;
    await memory.procedures.learn(TASK);
    await memory.flush();
    const [procedure] = await memory.procedures.list();
    expect(procedure?.whatWorks).toEqual(['Group the changes by component']);
    expect(server.requests.slice(before).find(isReflectionRequest)?.body.model).toBe('loopback-chat');
    await memory.close();
  });

  it('MEMOIR_PROCEDURES_REFLECTION_MODEL reflects; a languageModel the caller passed is kept', async () => {
    const own = createScriptedLanguageModel(() => '{}');
    const built = options(
      {
        MEMOIR_MODEL: 'loopback-chat',
        MEMOIR_BASE_URL: server.baseURL,
        MEMOIR_PROCEDURES_REFLECTION_MODEL: 'loopback-reflector',
      },
      { languageModel: own },
    );
    expect(built.languageModel).toBe(own);
    const memory = createMemory(built);
    const before = server.requests.length;
    await memory.procedures.learn(TASK);
    await memory.flush();
    expect(server.requests.slice(before).find(isReflectionRequest)?.body.model).toBe('loopback-reflector');
    await memory.close();
  });

  it('no model setting, no model; a model for OpenAI’s API without a key is a ConfigError naming apiKeyEnv', () => {
    expect(options({}).languageModel).toBeUndefined();
    const refused = (() => {
      try {
        options({ MEMOIR_MODEL: 'gpt-4o-mini' });
      } catch (error) {
        return error;
      }
    })();
    expect(ConfigError.isInstance(refused)).toBe(true);
    expect((refused as ConfigError).field).toBe('apiKeyEnv');
    expect(() => options({ MEMOIR_MODEL: 'gpt-4o-mini', MEMOIR_API_KEY_ENV: 'MY_KEY' })).toThrow(/MY_KEY/);
    expect(options({ MEMOIR_MODEL: 'gpt-4o-mini', MEMOIR_API_KEY: 'sk-test' }).languageModel?.id).toBe(
      'openai:gpt-4o-mini@api.openai.com',
    );
  });
});
