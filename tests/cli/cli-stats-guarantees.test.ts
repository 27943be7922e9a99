import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// `memoir stats` says what the store promises its writes, in text and in JSON.

async function memoir(argv: string[], home: string) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: home } };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('memoir stats', () => {
  it("shows the SQLite store's transaction and cross-process guarantees", async () => {
    const home = tempDir('memoir-cli-guarantees-');
    expect((await memoir(['retain', 'A note.'], home)).code).toBe(0);
    const text = await memoir(['stats'], home);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^writes\s+transactions atomic, between processes serialised$/m);
    const json = JSON.parse((await memoir(['stats', '--json'], home)).stdout) as {
      capabilities: { transactions: string; crossProcess: string; stagedChanges: boolean };
    };
    expect(json.capabilities).toMatchObject({
      transactions: 'atomic',
      crossProcess: 'serialised',
      stagedChanges: false,
    });
  });
});
