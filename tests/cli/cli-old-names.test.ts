import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { runMemoir as memoir } from '../integrations/mcp-harness.js';

// The old flag names docs/vocabulary.md promises (`--top-k` for `--k`, `--yes` / `-y` for
// `--confirm`, `procedures from-recording --limit`), through the real executable in a child process: each
// works as the new one does and a note on stderr names the new one.

describe('old flag names at the CLI', { timeout: 120_000 }, () => {
  it('recall --top-k is --k, with a note; a different --k beside it is refused', async () => {
    const home = tempDir('memoir-cli-old-names-');
    for (const text of [
      'The deploy runs on Fridays.',
      'The deploy needs a review.',
      'The deploy uses the release branch.',
    ]) {
      expect((await memoir(home, 'retain', text)).code).toBe(0);
    }
    const old = await memoir(home, '--json', 'recall', 'deploy', '--top-k', '2');
    expect(old.code, old.stderr).toBe(0);
    expect((JSON.parse(old.stdout) as { results: unknown[] }).results).toHaveLength(2);
    expect(old.stderr).toContain('--top-k is now --k');

    const both = await memoir(home, 'recall', 'deploy', '--top-k', '1', '--k', '2');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--top-k is the old name of --k');
  });

  it('procedures find --top-k and procedures from-recording --top-k / --limit are --k', async () => {
    const home = tempDir('memoir-cli-old-names-');
    const find = await memoir(home, 'procedures', 'find', 'deploy the app', '--top-k', '1');
    expect(find.code, find.stderr).toBe(0);
    expect(find.stderr).toContain('--top-k is now --k');
    for (const flag of ['--top-k', '--limit']) {
      // No recordings service here: the flag is taken (no usage error) and named, whatever the search says.
      const video = await memoir(home, 'procedures', 'from-recording', 'add an SSH key', flag, '2');
      expect(video.stderr).not.toMatch(/unknown option/);
      expect(video.code).not.toBe(2);
      expect(video.stderr).toContain(`${flag} is now --k`);
    }
  });

  it('restore --yes and -y are --confirm', async () => {
    const home = tempDir('memoir-cli-old-names-');
    expect((await memoir(home, 'retain', 'Keep this.')).code).toBe(0);
    const backup = JSON.parse((await memoir(home, '--json', 'backup', 'before')).stdout) as { path: string };
    for (const flag of ['--yes', '-y']) {
      const restored = await memoir(home, 'restore', backup.path, flag);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain('Restored 1 memory');
      expect(restored.stderr).toContain('--yes is now --confirm');
    }
  });
});
