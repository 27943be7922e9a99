import { afterEach, describe, expect, it } from 'vitest';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

// What an agent in OpenClaw reads when a memory tool fails: what to change in the plugin's
// terms — its config keys in openclaw.json, its parameter names, the tool to call again — never
// the library's ("Pass createMemory({ video … })", "the API reference"). On a recording host
// over a real SQLite file; no model.

const hosts: FakeHost[] = [];
const dirs: Array<() => void> = [];
const savedKey = process.env.MEMORIES_AI_API_KEY;
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
  for (const remove of dirs.splice(0)) remove();
  if (savedKey === undefined) delete process.env.MEMORIES_AI_API_KEY;
  else process.env.MEMORIES_AI_API_KEY = savedKey;
});

function host(config: Record<string, unknown> = {}): FakeHost {
  const state = stateDirectory();
  dirs.push(state.remove);
  const created = fakeHost(config, { stateDir: state.dir });
  hosts.push(created);
  return created;
}

const owner = { agentId: 'main', requesterSenderId: 'alice', senderIsOwner: true };

describe('OpenClaw tool errors speak the plugin’s language', { timeout: 60_000 }, () => {
  it('memory_recall_steps with no video settings and nothing cached names video.apiKey in openclaw.json', async () => {
    delete process.env.MEMORIES_AI_API_KEY;
    const plugin = host();
    const error = await plugin.tool('memory_recall_steps', { query: 'add an SSH key on GitHub' }, owner).then(
      () => new Error('no error'),
      (thrown: Error) => thrown,
    );
    expect(error.message).toMatch(/no video provider/);
    expect(error.message).toMatch(
      /Hint: Calling again will not help: the gateway's operator must set `video\.apiKey` .* in the memoir plugin's config in openclaw\.json \(plugins\.entries\.memoir\.config\), or MEMORIES_AI_API_KEY in the gateway's environment, and restart the gateway/,
    );
    expect(error.message).not.toMatch(/createMemory|createMemoriesAiProvider|memoir\/recorder/);
  });

  it('a destructive call without confirm names the tool to call again', async () => {
    const plugin = host();
    await expect(plugin.tool('memory_delete_session', { sessionId: 's-1' }, owner)).rejects.toThrow(
      'Hint: Ask the user first; call memory_delete_session again with confirm: true once they agree.',
    );
  });

  it('a bad parameter names it and the tool to call again, not the API reference', async () => {
    const plugin = host();
    const error = await plugin.tool('memory_read', { memoryId: 'mem_1', tier: 'L9' }, owner).then(
      () => new Error('no error'),
      (thrown: Error) => thrown,
    );
    expect(error.message).toMatch(/tier/);
    expect(error.message).toContain('Hint: Fix the parameter named above and call memory_read again.');
    expect(error.message).not.toMatch(/API reference/);
  });
});
