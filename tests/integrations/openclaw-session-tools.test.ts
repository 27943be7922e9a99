import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockModelServer, startMockModel } from '../openclaw-gateway/mock-model-server.js';
import { type FakeHost, fakeHost, message, stateDirectory } from './openclaw-fake-host.js';

// The session tools (list, resume, delete) and memory_read's tiers in the OpenClaw plugin, on a
// recording host over a real SQLite file. Conversations are captured by agent_end and extracted
// by the loopback mock model (OpenAI's wire format, the one scripted part), which writes each
// memory's three tiers: L0 "The user said: …", L1 "## What was said …", L2 "In an earlier
// conversation …". Every call is a sender's own: another sender's sessions and memories are
// neither listed, read nor deleted.

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModel();
});
afterAll(async () => {
  await model.close();
});

const hosts: FakeHost[] = [];
const dirs: Array<() => void> = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
  for (const remove of dirs.splice(0)) remove();
});

function host(): FakeHost {
  const state = stateDirectory();
  dirs.push(state.remove);
  const created = fakeHost(
    { llm: { baseUrl: model.baseUrl, apiKey: 'sk-test', model: 'mock-1' } },
    { stateDir: state.dir },
  );
  hosts.push(created);
  return created;
}

// A sender's turns (hook context) and tool calls (tool context) resolve to the same scope.
const aliceTurn = { agentId: 'main', sessionKey: 'agent:main:alice', sessionId: 's-alice', senderId: 'alice' };
const bobTurn = { agentId: 'main', sessionKey: 'agent:main:bob', sessionId: 's-bob', senderId: 'bob' };
const alice = { agentId: 'main', requesterSenderId: 'alice' };
const bob = { agentId: 'main', requesterSenderId: 'bob' };

/** Capture one run of four messages (extractMinMessages) for a sender and wait until it is stored. */
async function converse(plugin: FakeHost, turn: typeof aliceTurn, lines: [string, string]): Promise<void> {
  plugin.end(
    [
      message('user', lines[0]),
      message('assistant', 'Noted.'),
      message('user', lines[1]),
      message('assistant', 'Got it.'),
    ],
    turn,
  );
  await plugin.handle!.flush();
}

/** The number of memories memory_list_sessions gives for a session. */
const countIn = (listed: string, session: string) =>
  Number(new RegExp(`- ${session} \\([^,]*, (\\d+) memor`).exec(listed)?.[1] ?? Number.NaN);

const idsIn = (recalled: string) => /Ids: (.+)$/m.exec(recalled)?.[1]?.split(', ') ?? [];

describe('session tools through the OpenClaw plugin', { timeout: 60_000 }, () => {
  it('registers memory_read and the three session tools with the memory tools', () => {
    const plugin = host();
    for (const name of ['memory_read', 'memory_list_sessions', 'memory_resume_session', 'memory_delete_session']) {
      expect(plugin.tools.has(name), name).toBe(true);
    }
  });

  it('a sender lists and resumes only their own sessions; memory_store then writes into the resumed one', async () => {
    const plugin = host();
    await converse(plugin, aliceTurn, ['Our CI runs on Buildkite.', 'Deploys happen on Fridays.']);
    await converse(plugin, bobTurn, ['My locker code is 4711.', 'I commute by train.']);

    const alices = await plugin.tool('memory_list_sessions', {}, alice);
    expect(alices).toMatch(/^1 session:/);
    const before = countIn(alices, 's-alice');
    expect(before).toBeGreaterThan(0);
    expect(alices).toContain('- s-alice (');
    expect(alices).not.toContain('s-bob');
    expect(await plugin.tool('memory_list_sessions', { limit: 5 }, bob)).not.toContain('s-alice');

    // Bob naming Alice's session id starts a session of that id in his own scope (as MCP's
    // resume of an unknown id does): nothing of hers shows, and nothing of his lands in hers.
    const resumedByBob = await plugin.tool('memory_resume_session', { sessionId: 's-alice' }, bob);
    expect(resumedByBob).toMatch(/^No session s-alice yet: started it/);
    expect(resumedByBob).not.toContain('Buildkite');

    const resumed = await plugin.tool('memory_resume_session', { sessionId: 's-alice' }, alice);
    expect(resumed).toMatch(/^Resumed session s-alice \(started .*\)\.\nLatest memories:/);
    expect(resumed).toContain('Buildkite');
    expect(resumed).not.toContain('4711');

    // Each one's next memory goes to the session they resumed, in their own scope.
    expect(await plugin.tool('memory_store', { text: 'The staging cluster is called kiwi.' }, alice)).toContain(
      'in session s-alice',
    );
    expect(await plugin.tool('memory_store', { text: 'I take the 8:10 train.' }, bob)).toContain('in session s-alice');
    const after = await plugin.tool('memory_list_sessions', {}, alice);
    expect(after).toMatch(/^1 session \(current: s-alice\):/);
    expect(countIn(after, 's-alice')).toBe(before + 1);
    const again = await plugin.tool('memory_resume_session', { sessionId: 's-alice' }, alice);
    expect(again).toContain('kiwi');
    expect(again).not.toContain('8:10');
    const bobs = await plugin.tool('memory_list_sessions', {}, bob);
    expect(bobs).toMatch(/^2 sessions \(current: s-alice\):/);
    expect(countIn(bobs, 's-alice')).toBe(1);
  });

  it('delete asks for confirm, deletes only the caller’s session, and another sender’s id deletes nothing', async () => {
    const plugin = host();
    await converse(plugin, aliceTurn, ['Our CI runs on Buildkite.', 'Deploys happen on Fridays.']);
    await converse(plugin, bobTurn, ['My locker code is 4711.', 'I commute by train.']);

    await expect(plugin.tool('memory_delete_session', { sessionId: 's-alice' }, alice)).rejects.toThrow(
      /confirm: expected true.*\n.*Hint: Ask the user first; call memory_delete_session again with confirm: true/s,
    );
    expect(await plugin.tool('memory_delete_session', { sessionId: 's-alice', confirm: true }, bob)).toContain(
      '0 memories removed',
    );
    const kept = countIn(await plugin.tool('memory_list_sessions', {}, alice), 's-alice');
    expect(kept).toBeGreaterThan(0);

    const deleted = await plugin.tool('memory_delete_session', { sessionId: 's-alice', confirm: true }, alice);
    expect(deleted).toMatch(new RegExp(`^Deleted session s-alice: ${kept} memories removed`));
    expect(await plugin.tool('memory_list_sessions', {}, alice)).toBe('No sessions yet.');
    expect(await plugin.tool('memory_recall', { query: 'Buildkite CI' }, alice)).toMatch(/^Nothing is remembered/);
    // Bob's session and memories are untouched.
    expect(await plugin.tool('memory_list_sessions', {}, bob)).toContain('- s-bob (');
    expect(await plugin.tool('memory_recall', { query: 'locker code' }, bob)).toContain('4711');
  });

  it('bad parameters are refused, naming the field', async () => {
    const plugin = host();
    await expect(plugin.tool('memory_resume_session', {}, alice)).rejects.toThrow(/sessionId/);
    await expect(plugin.tool('memory_list_sessions', { limit: 0 }, alice)).rejects.toThrow(/limit/);
    await expect(plugin.tool('memory_delete_session', { session: 's-alice' }, alice)).rejects.toThrow(/session/);
  });
});

describe('memory_read: a memory at its L0 / L1 / L2 tier', { timeout: 60_000 }, () => {
  it('shows the tier asked for, under either name, and only the caller’s memories', async () => {
    const plugin = host();
    await converse(plugin, aliceTurn, ['Our CI runs on Buildkite.', 'Deploys happen on Fridays.']);
    const [id] = idsIn(await plugin.tool('memory_recall', { query: 'Buildkite CI', limit: 1 }, alice));
    expect(id).toMatch(/^mem_/);

    const l0 = await plugin.tool('memory_read', { memoryId: id, tier: 'L0' }, alice);
    expect(l0).toContain('L0 abstract: The user said: Our CI runs on Buildkite.');
    expect(l0).not.toContain('## What was said');
    expect(l0).not.toContain('In an earlier conversation');

    const l1 = await plugin.tool('memory_read', { memoryId: id, tier: 'L1' }, alice);
    expect(l1).toContain('L1 overview: ## What was said\n- Our CI runs on Buildkite.');
    expect(l1).not.toContain('In an earlier conversation');
    expect(await plugin.tool('memory_read', { memoryId: id, tier: 'overview' }, alice)).toBe(l1);

    const l2 = await plugin.tool('memory_read', { memoryId: id }, alice);
    expect(l2).toContain('In an earlier conversation the user told the agent: "Our CI runs on Buildkite."');
    expect(await plugin.tool('memory_read', { memoryId: id, tier: 'L2' }, alice)).toBe(l2);

    await expect(plugin.tool('memory_read', { memoryId: id }, bob)).rejects.toThrow(/does not exist/);
    await expect(plugin.tool('memory_read', { memoryId: id, tier: 'L3' }, alice)).rejects.toThrow(/tier/);
  });

  it('a memory stored without an overview says so at L1 and shows its content', async () => {
    const plugin = host();
    const stored = await plugin.tool('memory_store', { text: 'The staging cluster is called kiwi.' }, alice);
    const id = /Stored memory (mem_\w+)/.exec(stored)?.[1] ?? '';
    const l1 = await plugin.tool('memory_read', { memoryId: id, tier: 'L1' }, alice);
    expect(l1).toContain('(no L1 overview is stored for it; its L2 content instead)');
    expect(l1).toContain('The staging cluster is called kiwi.');
  });
});
