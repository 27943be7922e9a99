import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { eventually } from './mcp-harness.js';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

// The OpenClaw plugin's `workspace`: the agent's Markdown workspace (the configured one, else
// the directory the host gives the agent) is indexed at start, watched while the gateway
// runs, and recalled before each personal prompt; the gateway's stop closes it.

function workspace(): string {
  const root = join(tempDir('memoir-openclaw-ws-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n\n- W @Peter: Peter owns this workspace.\n');
  day(root, ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
  return root;
}

function day(root: string, lines: string[]): void {
  writeFileSync(
    join(root, 'memory', '2025-12-01.md'),
    `# 2025-12-01\n\n## Retain\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`,
  );
}

const CTX = { sessionKey: 'agent:main:main', agentId: 'main' };
const QUERY = 'where does Peter keep the spare keys?';

describe('OpenClaw plugin: the agent workspace as a live source', () => {
  const state = stateDirectory();
  let host: FakeHost | undefined;
  afterEach(async () => {
    await host?.stop();
    host = undefined;
  });

  it('indexes the configured workspace at start, recalls it before a prompt, and follows an edit', async () => {
    const root = workspace();
    host = fakeHost({ workspace: root, autoCapture: false }, { stateDir: state.dir });
    expect(host.handle).not.toBeNull();
    await host.services[0]!.start({ stateDir: state.dir, logger: host.api.logger });
    await eventually(
      async () => host!.logs.join('\n'),
      (logs) => logs.includes('watching'),
    );
    const before = await host.prompt(QUERY, CTX, { currentUserMessage: QUERY });
    expect(before?.prependContext).toContain('blue drawer');

    day(root, ['W @Peter: Peter keeps the spare keys in the green cabinet.']);
    const after = await eventually(
      () => host!.prompt(QUERY, CTX, { currentUserMessage: QUERY }),
      (result) => result?.prependContext?.includes('green cabinet') === true,
      20_000,
    );
    expect(after?.prependContext).not.toContain('blue drawer');
  }, 60_000);

  it("without the key, uses the agent's workspace directory the host gives", async () => {
    const root = workspace();
    host = fakeHost({ autoCapture: false }, { stateDir: state.dir });
    const result = await host.prompt(QUERY, { ...CTX, workspaceDir: root }, { currentUserMessage: QUERY });
    expect(result?.prependContext).toContain('blue drawer');
    // A host that gives no directory, and no key: no workspace, no error.
    const none = await host.prompt(QUERY, CTX, { currentUserMessage: QUERY });
    expect(none?.prependContext ?? '').not.toContain('blue drawer');
    expect(host.logs.filter((line) => line.startsWith('error'))).toEqual([]);
  }, 60_000);

  it('a workspace that is not a folder is a warning, and the agent goes on without it', async () => {
    const file = join(tempDir('memoir-openclaw-ws-file-'), 'notes.txt');
    writeFileSync(file, 'not a folder');
    host = fakeHost({ workspace: file, autoCapture: false }, { stateDir: state.dir });
    await host.services[0]!.start({ stateDir: state.dir, logger: host.api.logger });
    await host.prompt(QUERY, CTX, { currentUserMessage: QUERY });
    expect(host.logs.join('\n')).toMatch(/warn memoir: workspace .* not opened/);
  }, 60_000);
});
