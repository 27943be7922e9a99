import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { eventually } from './mcp-harness.js';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

// memory_reflect through the OpenClaw plugin: on demand, over the configured workspace's own
// client (the agent's notes), writing the entity pages the daily reflect writes; offered only
// when `workspace` is set, and refused in a group turn that names no sender.

function workspace(): string {
  const root = join(tempDir('memoir-openclaw-reflect-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(
    join(root, 'memory', '2025-12-01.md'),
    '# 2025-12-01\n\n## Retain\n\n- W @Peter: Peter keeps the spare keys in the blue drawer.\n- B @Peter: Peter moved to Lisbon in November.\n',
  );
  return root;
}

const ALICE = { agentId: 'main', sessionKey: 'agent:main:main', requesterSenderId: 'alice' };

describe('OpenClaw memory_reflect on demand', () => {
  const state = stateDirectory();
  let host: FakeHost | undefined;
  afterEach(async () => {
    await host?.stop();
    host = undefined;
  });

  it('reflects over the configured workspace and writes the entity page', async () => {
    const root = workspace();
    host = fakeHost(
      { workspace: root, autoCapture: false, dbPath: join(state.dir, 'a.sqlite') },
      { stateDir: state.dir },
    );
    await host.services[0]!.start({ stateDir: state.dir, logger: host.api.logger });
    await eventually(
      async () => host!.logs.join('\n'),
      (logs) => logs.includes('watching'),
    );
    expect(host.tools.has('memory_reflect')).toBe(true);
    const text = await host.tool('memory_reflect', { since: '2025-11-01' }, ALICE);
    expect(text).toMatch(/Reflected over memories since 2025-11-01/);
    expect(text).toContain('bank/entities/Peter.md');
    expect(existsSync(join(root, 'bank', 'entities', 'Peter.md'))).toBe(true);
    expect(readFileSync(join(root, 'bank', 'entities', 'Peter.md'), 'utf8')).toMatch(/blue drawer/);
    await expect(host.tool('memory_reflect', { since: '' }, ALICE)).rejects.toThrow(/since/);
    await expect(host.tool('memory_reflect', { window: '7d' }, ALICE)).rejects.toThrow(/window/);
  }, 60_000);

  it('a group turn that names no sender is refused, and nothing is written', async () => {
    const root = workspace();
    host = fakeHost(
      { workspace: root, autoCapture: false, dbPath: join(state.dir, 'b.sqlite') },
      { stateDir: state.dir },
    );
    await expect(
      host.tool('memory_reflect', {}, { agentId: 'main', sessionKey: 'agent:main:whatsapp:group:g1' }),
    ).rejects.toThrow(/names no sender/);
    expect(existsSync(join(root, 'bank'))).toBe(false);
  }, 60_000);

  it('on a LanceDB plugin, the workspace index is LanceDB too (no better-sqlite3 needed) and reflect runs on it', async () => {
    const root = workspace();
    host = fakeHost(
      { store: 'lancedb', workspace: root, autoCapture: false, dbPath: join(state.dir, 'lance') },
      { stateDir: state.dir },
    );
    const text = await host.tool('memory_reflect', { since: '2025-11-01' }, ALICE);
    expect(text).toContain('bank/entities/Peter.md');
    expect(existsSync(join(root, '.memory', 'index-lancedb'))).toBe(true);
    expect(existsSync(join(root, '.memory', 'index.sqlite'))).toBe(false);
  }, 60_000);

  it('is not offered without the workspace key', () => {
    host = fakeHost({ autoCapture: false, dbPath: join(state.dir, 'c.sqlite') }, { stateDir: state.dir });
    expect(host.tools.has('memory_reflect')).toBe(false);
  });
});
