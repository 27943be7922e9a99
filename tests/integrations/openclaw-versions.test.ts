import { afterEach, describe, expect, it } from 'vitest';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

// memory_history, memory_correct and memory_recall's asOf in the OpenClaw plugin, on a recording
// host over each store the plugin can keep (SQLite, LanceDB): what the agent reads, and that a
// sender's tools never reach another sender's versions.

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

const alice = { agentId: 'main', requesterSenderId: 'alice' };
const bob = { agentId: 'main', requesterSenderId: 'bob' };
const idIn = (text: string) => /Stored (?:memory )?(mem_\w+)/.exec(text)?.[1] ?? '';

describe.each(['sqlite', 'lancedb'])('versions through the OpenClaw tools (%s store)', { timeout: 60_000 }, (store) => {
  it('memory_correct supersedes, memory_history shows both, and recall marks the old version', async () => {
    const plugin = host({ store });
    const old = idIn(await plugin.tool('memory_store', { text: 'Peter lives in Vienna.', category: 'fact' }, alice));
    expect(old).toMatch(/^mem_/);
    const corrected = await plugin.tool('memory_correct', { memoryId: old, text: 'Peter lives in Lisbon.' }, alice);
    const lisbon = idIn(corrected);
    expect(corrected).toContain(`Stored ${lisbon}, which supersedes ${old}.`);
    for (const id of [old, lisbon]) {
      const history = await plugin.tool('memory_history', { memoryId: id }, alice);
      expect(history).toMatch(new RegExp(`${old}: Peter lives in Vienna\\.`));
      expect(history).toMatch(new RegExp(`${lisbon} \\[current\\]: Peter lives in Lisbon\\.`));
    }
    const recalled = await plugin.tool('memory_recall', { query: 'where does Peter live' }, alice);
    const entry = (id: string) => recalled.split('\n').find((line) => line.startsWith(`<memory id="${id}"`)) ?? '';
    expect(entry(old)).toMatch(/status="until \d{4}-\d{2}-\d{2}, superseded"/);
    expect(entry(lisbon)).not.toContain('status=');
    expect(recalled.indexOf(lisbon)).toBeLessThan(recalled.indexOf(old));
  });

  it('asOf answers with what was true then', async () => {
    const plugin = host({ store });
    const vienna = idIn(await plugin.tool('memory_store', { text: 'Peter lives in Vienna.' }, alice));
    const lisbon = idIn(
      await plugin.tool('memory_correct', { memoryId: vienna, text: 'Peter lives in Lisbon.' }, alice),
    );
    // Vienna was stored a moment before the correction: as of its own time, it was the truth.
    const memory = plugin.handle!.memory();
    const { validTo } = await memory.get(vienna);
    const before = new Date(Date.parse(validTo!) - 1).toISOString();
    const then = await plugin.tool('memory_recall', { query: 'where does Peter live', asOf: before }, alice);
    expect(then.indexOf(`id="${vienna}"`)).toBeGreaterThanOrEqual(0);
    expect(then.indexOf(`id="${vienna}"`)).toBeLessThan(then.indexOf(`id="${lisbon}"`));
    await expect(plugin.tool('memory_recall', { query: 'x', asOf: 'someday' }, alice)).rejects.toThrow(/as_of/);
  });

  it('another sender’s id is not found by memory_history or memory_correct, and nothing of theirs changes', async () => {
    const plugin = host({ store });
    const old = idIn(await plugin.tool('memory_store', { text: 'Alice’s locker code is 4711.' }, alice));
    await expect(plugin.tool('memory_history', { memoryId: old }, bob)).rejects.toThrow(/does not exist/);
    await expect(
      plugin.tool('memory_correct', { memoryId: old, text: 'Alice’s locker code is 0000.' }, bob),
    ).rejects.toThrow(/does not exist/);
    const history = await plugin.tool('memory_history', { memoryId: old }, alice);
    expect(history).toContain('has one version');
    expect(history).toContain('4711');
    const bobs = await plugin.tool('memory_recall', { query: 'locker code' }, bob);
    expect(bobs).not.toContain('0000');
    expect(bobs).not.toContain('4711');
  });

  it('bad parameters are refused, naming the field', async () => {
    const plugin = host({ store });
    await expect(plugin.tool('memory_history', {}, alice)).rejects.toThrow(/memoryId/);
    await expect(plugin.tool('memory_correct', { memoryId: 'mem_x', text: ' ' }, alice)).rejects.toThrow(/text/);
    await expect(plugin.tool('memory_correct', { memoryId: 'mem_x', text: 'y', extra: 1 }, alice)).rejects.toThrow(
      /extra/,
    );
  });
});
