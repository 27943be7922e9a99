import { afterEach, describe, expect, it } from 'vitest';
import { type FakeHost, fakeHost, message, stateDirectory } from './openclaw-fake-host.js';

// What the user said is what gets kept: a message over memoir's per-message limit is kept in
// ordered parts, not dropped, and only the blocks memoir itself injected are stripped — the
// user's own words survive even when they look like memoir's tag. Offline (episodes) over a
// real SQLite file, so the stored text is exactly what was captured.

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

async function storedMemories(plugin: FakeHost) {
  return plugin.handle!.memory().list({ scope: { agentId: 'main', userId: 'sender:alice' } });
}

/** The parts of msg-huge-1 cited in `contents`, in part order. */
function partsIn(contents: readonly string[]) {
  return contents
    .flatMap((content) => [
      ...content.matchAll(/\[message msg-huge-1, part (\d+) of (\d+)\]\n([\s\S]*?)(?=\n(?:user|assistant): |$)/g),
    ])
    .map((match) => ({ part: Number(match[1]), of: Number(match[2]), text: match[3]! }))
    .sort((a, b) => a.part - b.part);
}

describe('capture keeps every word', () => {
  it('keeps a 6 MB message in ordered parts within the retain limit, each citing the message and its part', async () => {
    const plugin = host({ extractMinMessages: 1 });
    // 6 MB of numbered paragraphs; each paragraph's number must survive, in order.
    const paragraphs: string[] = [];
    let size = 0;
    for (let index = 0; size < 6_000_000; index++) {
      const paragraph = `Paragraph P${String(index).padStart(6, '0')}. ${'lorem ipsum dolor sit amet '.repeat(20).trim()}`;
      paragraphs.push(paragraph);
      size += paragraph.length + 2;
    }
    const huge = { ...message('user', paragraphs.join('\n\n')), id: 'msg-huge-1' };
    plugin.end([huge, message('assistant', 'That was long.')], alice);
    expect(await plugin.handle!.flush(120_000)).toBe(true);
    expect(plugin.logs.join('\n')).not.toMatch(/could not store|capture failed/);

    const memories = await storedMemories(plugin);
    const contents = memories.map((memory) => memory.content);
    // The transcript keeps the parts once, in order.
    const parts = partsIn(
      memories.filter((memory) => memory.category === 'transcript').map((memory) => memory.content),
    );
    expect(parts.length).toBeGreaterThanOrEqual(6);
    expect(parts.map((part) => part.part)).toEqual(parts.map((_, index) => index + 1));
    expect(new Set(parts.map((part) => part.of))).toEqual(new Set([parts.length]));
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(1_000_000);
    // Split on paragraph boundaries: every part starts and ends a paragraph, and joined at the
    // paragraph break they are the message.
    for (const part of parts) expect(part.text).toMatch(/^Paragraph P\d{6}\.[\s\S]*amet$/);
    expect(parts.map((part) => part.text).join('\n\n')).toBe(huge.content);
    expect(contents.join('\n')).toContain('That was long.');
    // Each part is a turn of its own too, citing its part, in message order, then the reply.
    const turns = memories
      .filter((memory) => memory.category === 'conversation')
      .sort((a, b) => Number(a.metadata.turn) - Number(b.metadata.turn));
    expect(turns.map((turn) => turn.metadata.turn)).toEqual(turns.map((_, index) => index));
    expect(partsIn(turns.slice(0, -1).map((turn) => turn.content.replace(/^user: /, '')))).toEqual(parts);
    expect(turns.slice(0, -1).map((turn) => turn.source?.messageId)).toEqual(
      parts.map((part) => `msg-huge-1#part-${part.part}-of-${part.of}`),
    );
    expect(turns.at(-1)!.content).toBe('assistant: That was long.');
  }, 180_000);

  it('strips only the block memoir injected, and keeps a user’s own <agent-experience> look-alike as their words', async () => {
    const plugin = host({ extractMinMessages: 2 });
    plugin.end([message('user', 'The staging cluster lives in Lisbon.'), message('assistant', 'Noted.')], alice);
    await plugin.handle!.flush();
    const injected = (await plugin.prompt('where does the staging cluster live?', alice))?.prependContext;
    expect(injected).toContain('Lisbon');

    const typed =
      '<agent-experience>\nMy own notes: the vault code is 6262.\n</agent-experience>\nPlease remember that.';
    plugin.end(
      [
        // The host persists memoir's block in the user message ("[timestamp] <block>\n\n<prompt>").
        { role: 'user', content: `[Mon 2026-11-23 20:01 UTC] ${injected}\n\nWhere is staging?`, timestamp: Date.now() },
        message('assistant', 'In Lisbon.'),
        message('user', typed),
        message('assistant', 'Remembered.'),
      ],
      alice,
    );
    await plugin.handle!.flush();
    const memories = await storedMemories(plugin);
    const all = memories.map((memory) => memory.content).join('\n');
    expect(all).toContain('Where is staging?');
    expect(all).toContain('My own notes: the vault code is 6262.');
    expect(all).toContain('<agent-experience>\nMy own notes');
    // memoir's own block is gone: the recalled memory is not stored a second time as said now.
    // It was said once, in the first conversation: its transcript and its turn hold it.
    const lisbon = memories.filter((memory) => memory.content.includes('The staging cluster lives in Lisbon'));
    expect(lisbon.map((memory) => memory.category).sort()).toEqual(['conversation', 'transcript']);
    expect(all.match(/The staging cluster lives in Lisbon/g)).toHaveLength(2);
    expect(all).not.toContain('Mon 2026-11-23');
    // The user's turn is what they typed: the block and the host's timestamp stripped, their look-alike kept.
    const turns = memories
      .filter((memory) => memory.category === 'conversation')
      .sort((a, b) => Number(a.metadata.turn) - Number(b.metadata.turn))
      .map((memory) => memory.content);
    expect(turns).toEqual([
      'user: The staging cluster lives in Lisbon.',
      'assistant: Noted.',
      'user: Where is staging?',
      'assistant: In Lisbon.',
      `user: ${typed}`,
      'assistant: Remembered.',
    ]);
  });
});
