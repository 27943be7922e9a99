import { afterEach, describe, expect, it } from 'vitest';
import { scopeSchema } from '../../src/core/spec/memory.js';
import type { OpenClawAgentContext } from '../../src/integrations/openclaw/index.js';
import { identityOfHook, identityOfTool } from '../../src/integrations/openclaw/openclaw-identity.js';
import { type FakeHost, fakeHost, message, stateDirectory } from './openclaw-fake-host.js';

// Who a memory belongs to: the mapping from the host's ids (agent, channel, sender, chat) to
// memoir scope ids must be injective — two different senders never share a scope, however
// long their ids or whatever separators they contain — and every scope id fits memoir's limit.

/** A small seeded generator, so a failure names the case that broke. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ALPHABET = ['a', 'b', ':', '|', '#', '%', '%3A', '/', '~', '…', 'é', '\u{1F600}', ' ', '0', '-'];

function randomId(next: () => number, prefix: string): string {
  const length = Math.floor(next() * 400);
  let id = prefix;
  for (let index = 0; index < length; index++) id += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return id;
}

const userOf = (ctx: OpenClawAgentContext) => identityOfHook(ctx).scope.userId!;

describe('sender ids to scope ids', () => {
  it('maps distinct senders (long ids with a common prefix, separators, channel prefixes) to distinct scopes that fit the scope-id limit', () => {
    const common = 'x'.repeat(290);
    const a = userOf({ agentId: 'main', senderId: `${common}alice` });
    const b = userOf({ agentId: 'main', senderId: `${common}bobby` });
    expect(a).not.toBe(b);
    expect(a.startsWith('sender:xxxx')).toBe(true); // a readable prefix

    // Channel and sender split differently must not meet: `a:b` + `c` vs `a` + `b:c`.
    expect(userOf({ channel: 'a:b', senderId: 'c' })).not.toBe(userOf({ channel: 'a', senderId: 'b:c' }));
    expect(userOf({ senderId: 'telegram:42' })).not.toBe(userOf({ channel: 'telegram', senderId: '42' }));
    // Ids are taken as given: padding does not make one sender into another.
    expect(userOf({ senderId: 'alice ' })).not.toBe(userOf({ senderId: 'alice' }));
    expect(userOf({ senderId: 42 as unknown as string })).toBe(userOf({ senderId: '42' }));
    // A chat named like its channel (2026.9's fallback when a run has no conversation) is still a chat of its own.
    expect(userOf({ channel: '+1555', chatId: '+1555' })).not.toBe(userOf({ channel: '+1666', chatId: '+1666' }));
    // The same id on two channels is two people.
    expect(userOf({ channel: 'telegram', senderId: '42' })).not.toBe(userOf({ channel: 'discord', senderId: '42' }));
    // A short id cannot be chosen to equal the hashed form of a long one.
    const long = userOf({ channel: 'telegram', senderId: 'y'.repeat(400) });
    expect(userOf({ channel: 'telegram', senderId: long.slice('sender:telegram:'.length) })).not.toBe(long);

    // Property: many generated (channel, sender) pairs, pairwise distinct inputs → distinct scopes.
    const next = random(24);
    const seen = new Map<string, string>();
    for (let index = 0; index < 3000; index++) {
      const channel = next() < 0.3 ? undefined : randomId(next, '').slice(0, 40) || undefined;
      const sender = randomId(next, index % 7 === 0 ? common : '') || 's';
      const input = JSON.stringify([channel?.trim() ? channel : null, sender.trim() ? sender : null]);
      const scope = identityOfHook({ agentId: 'main', ...(channel ? { channel } : {}), senderId: sender }).scope;
      expect(() => scopeSchema.parse(scope)).not.toThrow();
      const earlier = seen.get(scope.userId!);
      if (earlier !== undefined) expect(earlier).toBe(input);
      seen.set(scope.userId!, input);
    }

    // Agents and chats are mapped the same way; a tool resolves a sender exactly as a hook does.
    const agentA = identityOfHook({ agentId: `${common}one` }).scope.agentId;
    expect(agentA).not.toBe(identityOfHook({ agentId: `${common}two` }).scope.agentId);
    expect(agentA!.length).toBeLessThanOrEqual(256);
    expect(userOf({ chatId: `${common}1` })).not.toBe(userOf({ chatId: `${common}2` }));
    const tool = identityOfTool({ agentId: 'main', messageChannel: 'a:b', requesterSenderId: `${common}c` });
    expect(tool.scope).toEqual(identityOfHook({ agentId: 'main', channel: 'a:b', senderId: `${common}c` }).scope);
  });
});

describe('two 300-character senders with a common prefix, through the plugin', () => {
  const hosts: FakeHost[] = [];
  const dirs: Array<() => void> = [];
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.stop();
    for (const remove of dirs.splice(0)) remove();
  });

  it('keeps their memories apart in prompts and tools', async () => {
    const state = stateDirectory();
    dirs.push(state.remove);
    const plugin = fakeHost({ extractMinMessages: 2 }, { stateDir: state.dir });
    hosts.push(plugin);
    const prefix = 'p'.repeat(299);
    const first = { agentId: 'main', sessionKey: 'agent:main:dm:1', senderId: `${prefix}1` };
    const second = { agentId: 'main', sessionKey: 'agent:main:dm:2', senderId: `${prefix}2` };
    plugin.end([message('user', 'My passport number is X7731.'), message('assistant', 'Noted.')], first);
    await plugin.handle!.flush();
    expect((await plugin.prompt('passport number please', first))?.prependContext).toContain('X7731');
    expect(await plugin.prompt('passport number please', second)).toBeUndefined();
    expect(
      await plugin.tool(
        'memory_recall',
        { query: 'passport number' },
        { agentId: 'main', requesterSenderId: `${prefix}2` },
      ),
    ).not.toContain('X7731');
  });
});

describe('the tool and the hook of one turn', () => {
  // The two contexts the 2026.9.6 gateway gave one `openclaw agent --to +15550001` turn (logged
  // from the plugin in a real run): the hook's channelId is the conversation, not a channel.
  const hook: OpenClawAgentContext = {
    agentId: 'main',
    sessionKey: 'agent:main:alice-ws-1',
    sessionId: '69e509ee-b3a9-4fbb-b704-b25f2fe5281c',
    trigger: 'user',
    channelId: '+15550001',
    chatId: '+15550001',
  } as OpenClawAgentContext;
  const tool = {
    agentId: 'main',
    sessionKey: 'agent:main:alice-ws-1',
    sessionId: '69e509ee-b3a9-4fbb-b704-b25f2fe5281c',
    deliveryContext: { to: '+15550001' },
  };

  it('resolve the same scope for a CLI turn of the 2026.9.6 gateway (what memory_core_append writes, the hook reads)', () => {
    expect(identityOfTool(tool).scope).toEqual(identityOfHook(hook).scope);
    expect(identityOfHook(hook).scope.userId).toBe('chat:+15550001');
    // Bob's turn stays apart.
    expect(identityOfTool({ ...tool, deliveryContext: { to: '+15550002' } }).scope).not.toEqual(
      identityOfHook(hook).scope,
    );
  });

  it('resolve the same scope on a channel: the tool names it lower-cased and the target prefixed, the hook as given and stripped', () => {
    // 2026.9.6: the tool's messageChannel is normalised (lower-cased), its `to` is the raw target;
    // the hook's channel is as given, and its chatId the target without `user:`/`<channel>:`.
    const hookOn = { agentId: 'main', sessionKey: 'agent:main:x', channel: 'Telegram', channelId: '42', chatId: '42' };
    for (const to of ['42', 'user:42', 'telegram:42', 'Telegram:dm:42']) {
      const onTool = identityOfTool({
        agentId: 'main',
        sessionKey: 'agent:main:x',
        messageChannel: 'telegram',
        deliveryContext: { to },
      });
      expect(onTool.scope).toEqual(identityOfHook(hookOn).scope);
    }
    const withSender = identityOfTool({ agentId: 'main', messageChannel: 'telegram', requesterSenderId: '7' });
    expect(withSender.scope).toEqual(identityOfHook({ ...hookOn, senderId: '7' }).scope);
    // A chat on another channel, or another chat, stays apart.
    expect(identityOfHook({ ...hookOn, channel: 'discord' }).scope).not.toEqual(identityOfHook(hookOn).scope);
    expect(identityOfHook({ ...hookOn, chatId: '43', channelId: '43' }).scope).not.toEqual(
      identityOfHook(hookOn).scope,
    );
  });

  it('still takes channelId for the channel on hosts that send no chatId', () => {
    expect(identityOfHook({ agentId: 'main', channelId: 'telegram', senderId: '7' }).scope).toEqual(
      identityOfTool({ agentId: 'main', messageChannel: 'telegram', requesterSenderId: '7' }).scope,
    );
  });
});
