import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// listSessions and deleteSession take a per-call `scope`, as list and recall do: a door that
// serves many senders on one client (the OpenClaw plugin) lists and deletes one sender's
// sessions only. The scope narrows a scoped client's, never widens it.

const root = tempDir('memoir-session-scope-');

describe.each(STORES)('sessions with a per-call scope (%s)', (_name, makeStore) => {
  it('lists and deletes only the named scope’s sessions; another tenant’s scope sees nothing', async () => {
    const store = makeStore();
    const admin = createMemory({ store, logger: quiet, backupDirectory: mkdtempSync(join(root, 'b-')) });
    const alice = { agentId: 'main', userId: 'alice' };
    const bob = { agentId: 'main', userId: 'bob' };
    await admin.retain([
      { content: 'Alice set up the deploy pipeline.', sessionId: 'shared', scope: alice },
      { content: 'Alice wrote the runbook.', sessionId: 'alice-only', scope: alice },
      { content: 'Bob fixed the flaky test.', sessionId: 'shared', scope: bob },
    ]);
    const ids = (sessions: Array<{ id: string }>) => sessions.map((session) => session.id).sort();

    expect(ids(await admin.listSessions({ scope: alice }))).toEqual(['alice-only', 'shared']);
    expect(ids(await admin.listSessions({ scope: bob }))).toEqual(['shared']);
    expect((await admin.listSessions({ scope: bob }))[0]?.memoryCount).toBe(1);

    // Bob's "shared" goes; Alice's session of the same id stays whole.
    expect(await admin.deleteSession('shared', { confirm: true, scope: bob })).toBe(1);
    expect(await admin.listSessions({ scope: bob })).toEqual([]);
    expect(ids(await admin.listSessions({ scope: alice }))).toEqual(['alice-only', 'shared']);
    expect((await admin.list({ scope: alice })).length).toBe(2);

    // A client scoped to Alice asking for Bob's scope: nothing there, nothing deleted.
    const scoped = createMemory({ store, scope: alice, logger: quiet, backupDirectory: mkdtempSync(join(root, 'b-')) });
    expect(await scoped.listSessions({ scope: bob })).toEqual([]);
    expect(await scoped.deleteSession('shared', { confirm: true, scope: bob })).toBe(0);
    expect((await admin.list({ scope: alice })).length).toBe(2);

    await expect(admin.deleteSession('shared', { scope: alice } as never)).rejects.toThrow(/confirm/);
    await expect(admin.listSessions({ scope: { user: 'alice' } } as never)).rejects.toThrow(/scope/);
    await scoped.close();
    await admin.close();
  });
});
