import { afterEach, describe, expect, it } from 'vitest';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

// Seed 004's loop through the OpenClaw plugin: the agent edits its core block with tool calls
// in one turn, and the next turn's prompt carries the block at the top — per sender, on every
// store the plugin offers, offline.

const hosts: FakeHost[] = [];
const dirs: Array<() => void> = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
  for (const remove of dirs.splice(0)) remove();
});

function host(config: Record<string, unknown>): FakeHost {
  const state = stateDirectory();
  dirs.push(state.remove);
  const created = fakeHost(config, { stateDir: state.dir });
  hosts.push(created);
  return created;
}

const alice = { agentId: 'main', sessionKey: 'agent:main:alice', sessionId: 's-alice', senderId: 'alice' };
const bob = { agentId: 'main', sessionKey: 'agent:main:bob', sessionId: 's-bob', senderId: 'bob' };
const aliceTool = { agentId: 'main', requesterSenderId: 'alice' };
const bobTool = { agentId: 'main', requesterSenderId: 'bob' };

describe.each(['sqlite', 'lancedb'])('the core block through the OpenClaw plugin (%s store)', (store) => {
  it('registers the four memory_core_* tools by default, beside or without memory-lancedb’s names', () => {
    const core = ['memory_core_read', 'memory_core_append', 'memory_core_replace', 'memory_core_insert'];
    expect([...host({ store }).tools.keys()]).toEqual(expect.arrayContaining(core));
    // registerTools: false leaves out the memory tools memory-lancedb also names; the core block's
    // and the procedures' tools have switches of their own.
    const procedureTools = ['memory_find_procedures', 'memory_get_procedure', 'memory_learn_procedure'];
    expect([...host({ store, registerTools: false }).tools.keys()].sort()).toEqual([...core, ...procedureTools].sort());
    expect([...host({ store, registerTools: false, procedures: { tools: false } }).tools.keys()]).toEqual(core);
    expect([...host({ store, coreBlock: false }).tools.keys()]).not.toContain('memory_core_read');
  });

  it('an edit made by a tool in one turn is at the top of the next turn’s prompt, and only the sender’s', async () => {
    const plugin = host({ store });
    // Turn 1: the agent writes, replaces and inserts with tool calls.
    expect(await plugin.tool('memory_core_append', { text: 'Alice lives in Vienna.' }, aliceTool)).toContain(
      'Alice lives in Vienna.',
    );
    await plugin.tool('memory_core_append', { text: 'Alice prefers concise replies.' }, aliceTool);
    await plugin.tool('memory_core_replace', { find: 'Vienna', with: 'Lisbon' }, aliceTool);
    await plugin.tool('memory_core_insert', { text: 'Alice is the on-call lead.', line: 0 }, aliceTool);
    const read = await plugin.tool('memory_core_read', {}, aliceTool);
    expect(read).toContain('Alice is the on-call lead.\nAlice lives in Lisbon.\nAlice prefers concise replies.');

    // Turn 2: a short request ("ok") recalls nothing, but the block is injected every turn.
    const block = (await plugin.prompt('ok', alice))?.prependContext ?? '';
    expect(block).toMatch(/^<agent-experience nonce="[\w-]+">\n## Core memory\n/);
    expect(block).toContain(
      '<core>\nAlice is the on-call lead.\nAlice lives in Lisbon.\nAlice prefers concise replies.\n</core>',
    );
    expect(plugin.logs.some((line) => /info memoir: injecting the core block \(\d+ tokens\)/.test(line))).toBe(true);

    // Bob's turn and Bob's tools never see Alice's block.
    expect(await plugin.prompt('What do you know about me?', bob)).toBeUndefined();
    expect(await plugin.tool('memory_core_read', {}, bobTool)).toMatch(/core block is empty/);
    await plugin.tool('memory_core_append', { text: 'Bob takes his coffee black.' }, bobTool);
    const bobBlock = (await plugin.prompt('What do you know about me?', bob))?.prependContext ?? '';
    expect(bobBlock).toContain('Bob takes his coffee black.');
    expect(bobBlock).not.toContain('Alice');
    const aliceAgain = (await plugin.prompt('ok', alice))?.prependContext ?? '';
    expect(aliceAgain).not.toContain('Bob');
  });

  it('refuses an over-limit edit and a missing replace target with errors naming the argument, changing nothing', async () => {
    const plugin = host({ store });
    await plugin.tool('memory_core_append', { text: 'Alice lives in Lisbon.' }, aliceTool);
    await expect(plugin.tool('memory_core_append', { text: 'word '.repeat(3000) }, aliceTool)).rejects.toThrow(
      /^memory_core_append: text: would make the core block \d+ tokens, over its limit of 2000/,
    );
    await expect(plugin.tool('memory_core_replace', { find: 'Vienna', with: 'Rome' }, aliceTool)).rejects.toThrow(
      /^memory_core_replace: find: expected text that occurs in the core block/,
    );
    await expect(plugin.tool('memory_core_insert', { text: 'x', line: -1 }, aliceTool)).rejects.toThrow(/line/);
    expect(await plugin.tool('memory_core_read', {}, aliceTool)).toMatch(/\nAlice lives in Lisbon\.$/);
  });

  it('coreBlock: false injects no block', async () => {
    const plugin = host({ store, coreBlock: false });
    await plugin
      .handle!.memory()
      .core.append('Alice lives in Lisbon.', { scope: { agentId: 'main', userId: 'sender:alice' } });
    expect(await plugin.prompt('Where do I live these days?', alice)).toBeUndefined();
  });

  it('a group turn with no named sender gets no block and its tools refuse', async () => {
    const plugin = host({ store });
    await plugin.tool('memory_core_append', { text: 'Alice lives in Lisbon.' }, aliceTool);
    const group = { agentId: 'main', sessionKey: 'agent:main:whatsapp:group:g1', sessionId: 's-g' };
    expect(await plugin.prompt('Where does everyone live?', group)).toBeUndefined();
    await expect(
      plugin.tool('memory_core_read', {}, { agentId: 'main', sessionKey: group.sessionKey }),
    ).rejects.toThrow(/names no sender/);
  });
});
