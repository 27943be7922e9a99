import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockModelServer, startMockModel } from '../openclaw-gateway/mock-model-server.js';
import { type FakeHost, fakeHost, message, stateDirectory } from './openclaw-fake-host.js';

// What seed 002 asks of the plugin beside memory-lancedb: recallMinScore means what
// memory-lancedb's 0.3 means (cosine similarity between the prompt and a memory), memoir's
// tools stay out of the way of memory-lancedb's names, SKIP decisions are logged, and the
// user's name reaches the extraction prompt. On a recording host over a real SQLite file;
// the model is the loopback mock speaking OpenAI's wire format.

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

function host(config: Record<string, unknown> = {}, hostConfig?: Record<string, unknown>): FakeHost {
  const state = stateDirectory();
  dirs.push(state.remove);
  const created = fakeHost(config, { stateDir: state.dir, ...(hostConfig ? { hostConfig } : {}) });
  hosts.push(created);
  return created;
}

const withModel = (extra: Record<string, unknown> = {}) => ({
  llm: { baseUrl: model.baseUrl, apiKey: 'sk-test', model: 'mock-1' },
  ...extra,
});

const alice = { agentId: 'main', sessionKey: 'agent:main:alice', sessionId: 's-alice', senderId: 'alice' };

/** memory-lancedb as openclaw.json enables it: its entry, and the memory slot it takes. */
const lancedbEnabled = {
  plugins: {
    slots: { memory: 'memory-lancedb' },
    entries: { 'memory-lancedb': { enabled: true, config: { embedding: { apiKey: 'sk-x' } } }, memoir: {} },
  },
};

describe('recallMinScore is a floor on vector similarity', () => {
  // A long memory sharing one word with the prompt: BM25 ranks it first (memoir's fused score
  // ~0.88), but its cosine similarity to "tell me about travel" is about 0.2.
  const BUDGET =
    'The quarterly budget review covers marketing spend, hiring plans, office leases, travel policy and the new vendor contracts for next year.';

  it('leaves out a memory ranked first whose similarity to the prompt is below recallMinScore', async () => {
    const plugin = host({ recallMinScore: 0.3 });
    const client = plugin.handle!.memory();
    await client.retain({ content: BUDGET, scope: { agentId: 'main', userId: 'sender:alice' } });
    const probe = await client.recall('tell me about travel', { scope: { agentId: 'main', userId: 'sender:alice' } });
    // The premise: ranked high by memoir, weak by similarity.
    expect(probe.results[0]!.score).toBeGreaterThan(0.3);
    expect(probe.results[0]!.breakdown.vector!.score).toBeLessThan(0.3);
    expect(await plugin.prompt('tell me about travel', alice)).toBeUndefined();
  });

  it('injects the same memory for a prompt it is similar to, and for any prompt at recallMinScore 0', async () => {
    const plugin = host({ recallMinScore: 0.3 });
    await plugin.handle!.memory().retain({ content: BUDGET, scope: { agentId: 'main', userId: 'sender:alice' } });
    expect((await plugin.prompt('What is our travel policy?', alice))?.prependContext).toContain('quarterly budget');
    const open = host({ recallMinScore: 0 });
    await open.handle!.memory().retain({ content: BUDGET, scope: { agentId: 'main', userId: 'sender:alice' } });
    expect((await open.prompt('tell me about travel', alice))?.prependContext).toContain('quarterly budget');
  });

  it('keeps a result whose similarity was not measured (listed for an entity the prompt names)', async () => {
    const plugin = host({ recallMinScore: 0.9 });
    const scope = { agentId: 'main', userId: 'sender:alice' };
    const client = plugin.handle!.memory();
    await client.retain({ content: 'Peter moved to Lisbon in March.', entities: ['Peter'], scope });
    const probe = await client.recall('What do you know about Peter?', { scope });
    const listed = probe.results.find((result) => result.breakdown.vector === null);
    expect(listed, 'the entity recall lists the memory without a vector score').toBeDefined();
    expect((await plugin.prompt('What do you know about Peter?', alice))?.prependContext).toContain('Lisbon');
  });
});

// The core block tools follow coreBlock alone, the procedure tools procedures.tools alone: no
// other memory plugin uses their names.
const PROCEDURE_TOOLS = ['memory_find_procedures', 'memory_get_procedure', 'memory_learn_procedure'];
const memoryTools = (plugin: { tools: Map<string, unknown> }) =>
  [...plugin.tools.keys()].filter((name) => !name.startsWith('memory_core_') && !PROCEDURE_TOOLS.includes(name));
const CORE_TOOLS = ['memory_core_read', 'memory_core_append', 'memory_core_replace', 'memory_core_insert'];

describe('registerTools beside memory-lancedb', () => {
  it('registers no tools by default when memory-lancedb is enabled, and says why', () => {
    const plugin = host({}, lancedbEnabled);
    expect(memoryTools(plugin)).toEqual([]);
    expect([...plugin.tools.keys()]).toEqual([...CORE_TOOLS, ...PROCEDURE_TOOLS]);
    expect(
      plugin.logs.some((line) => /^info memoir: no memory tools registered: memory-lancedb is enabled/.test(line)),
    ).toBe(true);
    // Recall and capture still run.
    expect([...plugin.hooks.keys()]).toEqual(expect.arrayContaining(['before_prompt_build', 'agent_end']));
  });

  it('also when memory-lancedb holds the memory slot without an entry, or has an entry and no slot', () => {
    expect(memoryTools(host({}, { plugins: { slots: { memory: 'memory-lancedb' } } }))).toEqual([]);
    expect(memoryTools(host({}, { plugins: { entries: { 'memory-lancedb': { enabled: true } } } }))).toEqual([]);
  });

  it('registers its tools when memory-lancedb is disabled, denied, or plugins are off', () => {
    const ten = [
      'memory_recall',
      'memory_store',
      'memory_forget',
      'memory_history',
      'memory_correct',
      'memory_recall_steps',
      'memory_read',
      'memory_list_sessions',
      'memory_resume_session',
      'memory_delete_session',
    ];
    const disabled = { plugins: { entries: { 'memory-lancedb': { enabled: false } } } };
    expect(memoryTools(host({}, disabled))).toEqual(ten);
    const denied = { plugins: { deny: ['memory-lancedb'], entries: { 'memory-lancedb': { enabled: true } } } };
    expect(memoryTools(host({}, denied))).toEqual(ten);
    const notAllowed = { plugins: { allow: ['memoir'], slots: { memory: 'memory-lancedb' } } };
    expect(memoryTools(host({}, notAllowed))).toEqual(ten);
    expect(memoryTools(host({}, { plugins: {} }))).toEqual(ten);
  });

  it('registerTools: true registers them anyway and warns which names clash and what the host does', () => {
    const plugin = host({ registerTools: true }, lancedbEnabled);
    expect(memoryTools(plugin)).toHaveLength(10);
    const warning = plugin.logs.find((line) => line.startsWith('warn memoir: registerTools is true'));
    expect(warning).toContain('memory_recall, memory_store, memory_forget');
    expect(warning).toContain('plugin tool name conflict');
  });

  it('registerTools: false registers none, with or without memory-lancedb', () => {
    expect(memoryTools(host({ registerTools: false }))).toEqual([]);
    expect([...host({ registerTools: false, coreBlock: false, procedures: { tools: false } }).tools.keys()]).toEqual(
      [],
    );
  });
});

describe('SKIP decisions and skipped messages are logged', () => {
  it('logs the pipeline’s SKIP of a repeated statement, with the memory it duplicates', async () => {
    const plugin = host(withModel({ extractMinMessages: 2 }));
    const said = 'I always deploy the staging cluster with blue-green releases.';
    plugin.end([message('user', said), message('assistant', 'Noted.')], alice);
    expect(await plugin.handle!.flush()).toBe(true);
    const second = { ...alice, sessionKey: 'agent:main:alice-2', sessionId: 's-alice-2' };
    plugin.end([message('user', said), message('assistant', 'Noted again.')], second);
    expect(await plugin.handle!.flush()).toBe(true);
    const skip = plugin.logs.find((line) => /^info memoir: skipped a memory \(duplicate of mem_\w+\)/.test(line));
    expect(skip, plugin.logs.join('\n')).toContain('An existing memory already says the same.');
  });

  it('logs the messages of a failed run that capture passes over', () => {
    const plugin = host(withModel());
    plugin.end([message('user', 'Deploy it now.'), message('assistant', 'Failed.')], alice, false);
    expect(plugin.logs).toContain('info memoir: capture skipped 2 message(s) of a failed run');
  });
});

describe('the user’s name reaches the extraction prompt', () => {
  it('passes the sender’s name from the channel context', async () => {
    const plugin = host(withModel({ extractMinMessages: 2 }));
    const from = model.requests.length;
    const ctx = { ...alice, channelContext: { sender: { id: 'alice', name: 'Alice Example' } } };
    plugin.end([message('user', 'I prefer short standups.'), message('assistant', 'Noted.')], ctx);
    expect(await plugin.handle!.flush()).toBe(true);
    const extraction = model.requests.slice(from).find((request) => request.caller === 'extract');
    expect(extraction?.lastUserText).toContain('<conversation user="Alice Example"');
  });

  it('reads it from the host’s Conversation info block in the message when the context has none', async () => {
    const plugin = host(withModel({ extractMinMessages: 2 }));
    const from = model.requests.length;
    const info = [
      'Conversation info: ⟦openclaw:ctx⟧',
      '```json',
      JSON.stringify({ chat_id: '+1555', sender: { id: 'alice', name: 'Alice From Telegram' } }, null, 2),
      '```',
      '',
      'I prefer long weekends.',
    ].join('\n');
    plugin.end([message('user', info), message('assistant', 'Noted.')], alice);
    expect(await plugin.handle!.flush()).toBe(true);
    const extraction = model.requests.slice(from).find((request) => request.caller === 'extract');
    expect(extraction?.lastUserText).toContain('<conversation user="Alice From Telegram"');
  });

  it('names nobody when the host knows no name', async () => {
    const plugin = host(withModel({ extractMinMessages: 2 }));
    const from = model.requests.length;
    plugin.end([message('user', 'I prefer tea.'), message('assistant', 'Noted.')], alice);
    expect(await plugin.handle!.flush()).toBe(true);
    const extraction = model.requests.slice(from).find((request) => request.caller === 'extract');
    expect(extraction?.lastUserText).toMatch(/<conversation(?! user=)/);
  });
});
