import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, createMemory, NotFoundError, ValidationError, withCapture } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// The Context Persistence spec's session scenarios, on every store.

const root = tempDir('memoir-sessions-');
const T0 = Date.parse('2023-10-26T12:34:56Z');
const backups = () => mkdtempSync(join(root, 'backups-'));

describe.each(STORES)('sessions (%s)', (_name, makeStore) => {
  it('Auto-generate session ID on MCP server start', async () => {
    const memory = createMemory({ store: makeStore(), sessionId: 'auto', clock: createFixedClock(T0), logger: quiet });
    const session = memory.currentSession();
    expect(session).toMatch(/^session_20231026_123456_[0-9a-f]{4}$/);
    const { ids } = await memory.retain(['first memory of the run', 'second memory of the run']);
    const stored = await Promise.all(ids.map((id) => memory.get(id)));
    expect(stored.map((item) => item.sessionId)).toEqual([session, session]);
    // View all stored memories for user session: list({ sessionId: 'current' }).
    expect((await memory.list({ sessionId: 'current' })).map((item) => item.id).sort()).toEqual([...ids].sort());
    const other = createMemory({ store: createInMemoryStore(), sessionId: 'auto', logger: quiet });
    expect(other.currentSession()).not.toBe(session);
    await memory.close();
    await other.close();
  });

  it('Resume previous session context on restart', async () => {
    const store = makeStore();
    const memory = createMemory({ store, logger: quiet, backupDirectory: backups() });
    await memory.retain([
      { content: 'Configured the staging deploy pipeline for the billing service.', sessionId: 'session_abc123' },
      { content: 'Configured the deploy pipeline for the search service.', sessionId: 'session_other' },
    ]);
    const before = await memory.recall('deploy pipeline configuration');
    expect(before.results[0]?.memory.sessionId).toBe('session_other');
    const session = await memory.resumeSession('session_abc123');
    expect(session.memoryCount).toBe(1);
    const after = await memory.recall('deploy pipeline configuration');
    expect(after.results[0]?.memory.sessionId).toBe('session_abc123');
    expect(after.results[0]?.breakdown.boosts.map((boost) => boost.name)).toContain('session');
    const { ids } = await memory.retain('continued where I left off');
    expect((await memory.get(ids[0]!)).sessionId).toBe('session_abc123');
    await expect(memory.resumeSession('session_missing')).rejects.toSatisfy(NotFoundError.isInstance);
    await memory.close();
  });

  it('List all available sessions', async () => {
    const memory = createMemory({ store: makeStore(), logger: quiet, backupDirectory: backups() });
    await memory.retain([
      { content: 'clicked submit', category: 'action', sessionId: 's1', metadata: { tool: 'mouse_click' } },
      { content: 'clicked submit again', category: 'action', sessionId: 's1', metadata: { tool: 'mouse_click' } },
      { content: 'typed the search query', category: 'action', sessionId: 's1', metadata: { tool: 'keyboard_type' } },
      { content: 'login screen', category: 'screen', sessionId: 's1' },
      { content: 'a note', sessionId: 's2' },
    ]);
    const sessions = await memory.listSessions();
    expect(sessions.map((session) => session.id).sort()).toEqual(['s1', 's2']);
    const s1 = sessions.find((session) => session.id === 's1')!;
    expect(s1.memoryCount).toBe(4);
    expect(s1.startedAt).toBeTruthy();
    expect(s1.endedAt).toBeTruthy();
    expect(s1.topCategories[0]).toEqual({ name: 'action', count: 3 });
    expect(s1.topActions).toEqual([
      { name: 'mouse_click', count: 2 },
      { name: 'keyboard_type', count: 1 },
    ]);
    expect(s1.summary).toMatch(/mouse_click ×2/);
    await memory.close();
  });

  it('Delete all memories from specific session', async () => {
    const memory = createMemory({ store: makeStore(), logger: quiet, backupDirectory: backups() });
    await memory.retain([
      { content: 'bank login', sessionId: 'session_abc123' },
      { content: 'bank transfer', sessionId: 'session_abc123' },
      { content: 'unrelated', sessionId: 'session_keep' },
    ]);
    await expect(memory.deleteSession('session_abc123', { confirm: false })).rejects.toSatisfy(
      (error: unknown) => ValidationError.isInstance(error) && error.field === 'options.confirm',
    );
    expect(await memory.list()).toHaveLength(3);
    expect(await memory.deleteSession('session_abc123', { confirm: true })).toBe(2);
    expect((await memory.list()).map((item) => item.content)).toEqual(['unrelated']);
    expect((await memory.listSessions()).map((session) => session.id)).toEqual(['session_keep']);
    await memory.close();
  });

  async function backedUp() {
    const directory = backups();
    const memory = createMemory({ store: makeStore(), logger: quiet, backupDirectory: directory });
    await memory.retain([{ content: 'keep me', sessionId: 's1' }, 'and me']);
    return { memory, directory };
  }

  it('Manual backup creation', async () => {
    const { memory, directory } = await backedUp();
    const named = await memory.backup('before_experiment');
    expect(named).toMatchObject({ name: 'before_experiment', counts: { memories: 2 } });
    expect(readdirSync(directory).some((file) => file.endsWith('_before_experiment.tar.gz'))).toBe(true);
    await memory.close();
  });

  it('Restore from backup', async () => {
    const { memory } = await backedUp();
    const named = await memory.backup('snapshot');
    await memory.retain('added after the backup');
    await expect(memory.restore(named.path, { confirm: false })).rejects.toSatisfy(ValidationError.isInstance);
    const report = await memory.restore(named.path, { confirm: true });
    expect(report.restored.memories).toBe(2);
    expect((await memory.list()).map((item) => item.content).sort()).toEqual(['and me', 'keep me']);
    await memory.close();
  });

  it('Clear all memories (nuclear option)', async () => {
    const { memory } = await backedUp();
    await expect(memory.clearAll({ confirm: false })).rejects.toSatisfy(
      (error: unknown) => ValidationError.isInstance(error) && error.field === 'options.confirm',
    );
    expect(await memory.list()).toHaveLength(2);
    await memory.clearAll({ confirm: true });
    expect(await memory.list()).toEqual([]);
    await memory.close();
  });

  it('Automatic backup before dangerous operations', async () => {
    const { memory, directory } = await backedUp();
    const named = await memory.backup('manual');
    await memory.deleteSession('s1', { confirm: true });
    await memory.restore(named.path, { confirm: true });
    await memory.clearAll({ confirm: true });
    const automatic = readdirSync(directory).filter((file) => file.includes('auto-before-'));
    expect(automatic.map((file) => file.replace(/^.*auto-before-/, '')).sort()).toEqual([
      'clear-all.tar.gz',
      'delete-session.tar.gz',
      'restore.tar.gz',
    ]);
    // Only the newest five automatic backups are kept; the named one stays.
    for (let i = 0; i < 4; i++) await memory.clearAll({ confirm: true });
    const after = readdirSync(directory);
    expect(after.filter((file) => file.includes('auto-before-'))).toHaveLength(5);
    expect(after.some((file) => file.endsWith('_manual.tar.gz'))).toBe(true);
    await memory.close();
  });

  it('Auto-capture successful automation action, Respect privacy exclusions and Skip repetitive actions based on interval filter, through the client', async () => {
    const memory = createMemory({
      store: makeStore(),
      logger: quiet,
      sessionId: 'auto',
      capture: { enabled: true, exclude: ['banking_*'] },
      backupDirectory: backups(),
    });
    const stored = memory.capture({
      tool: 'browser_login',
      parameters: { user: 'sam@example.com', password: 'hunter2' },
      result: { ok: true },
    });
    expect(stored).toEqual({ stored: true });
    const skipped: string[] = [];
    memory.on('memory:skipped', ({ reason }) => skipped.push(reason));
    expect(memory.capture({ tool: 'mouse_click', parameters: { x: 1 }, sessionId: 'banking_42' })).toMatchObject({
      stored: false,
      reason: 'excluded',
    });
    // Skip repetitive actions based on interval filter: the same click again at once is skipped, and announced.
    expect(memory.capture({ tool: 'scroll', parameters: { y: 3 } })).toEqual({ stored: true });
    expect(memory.capture({ tool: 'scroll', parameters: { y: 3 } })).toMatchObject({
      stored: false,
      reason: 'interval',
    });
    expect(skipped).toEqual(['excluded', 'interval']);
    await memory.flush();
    const [action] = await memory.list({ entities: ['browser_login'] });
    expect(action).toMatchObject({ category: 'action', sessionId: memory.currentSession() });
    expect(action!.content).not.toContain('hunter2');
    expect(action!.content).not.toContain('sam@example.com');
    const click = withCapture(async ({ x }: { x: number }) => ({ clicked: x }), {
      capture: memory.capturer,
      tool: 'mouse_click',
    });
    expect(await click({ x: 7 })).toEqual({ clicked: 7 });
    await memory.flush();
    expect((await memory.list()).map((item) => item.entities[0]).sort()).toEqual([
      'browser_login',
      'mouse_click',
      'scroll',
    ]);
    const off = createMemory({ store: makeStore(), logger: quiet });
    expect(off.capture({ tool: 'mouse_click' })).toEqual({ stored: false, reason: 'disabled' });
    expect(() => createMemory({ store: makeStore(), capture: { minIntervalSeconds: -1 } })).toThrow(
      /minIntervalSeconds/,
    );
    await memory.close();
    await off.close();
  });
});
