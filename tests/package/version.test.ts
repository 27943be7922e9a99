import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import { root } from './packed-package.js';

// `memoir --version` from a checkout (the sources); the package test runs it from the
// installed build.

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

async function memoir(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
  });
  return { code, stdout, stderr };
}

describe('memoir --version', () => {
  it('prints the version in package.json, with --version and -V', async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await memoir(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await memoir(['-V'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('is listed in the help', async () => {
    const { code, stdout } = await memoir(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/-V, --version +print the version of memoir/);
  });
});
