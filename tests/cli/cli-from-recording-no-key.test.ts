import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { runMemoir as memoir } from '../integrations/mcp-harness.js';

// `memoir procedures from-recording` with no MEMORIES_AI_API_KEY, through the real executable in
// a child process: as at the other doors, there is nothing to search and nothing cached, and the
// hint names the variable to set — in the CLI's terms, not the library's ("Pass apiKey",
// "createMemory({ video })"). Its old name, `memoir recall-video`, runs the same with a note.

const NO_PROVIDER = /^error: .*no video provider/m;
const HINT = /^hint: Set MEMORIES_AI_API_KEY \(a Memories AI key\) so your screen recordings can be searched/m;

describe('memoir procedures from-recording without a Memories AI key', { timeout: 60_000 }, () => {
  it('fails naming MEMORIES_AI_API_KEY as the thing to set', async () => {
    const home = tempDir('memoir-cli-from-recording-');
    const result = await memoir(home, 'procedures', 'from-recording', 'add an SSH key on GitHub');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(NO_PROVIDER);
    expect(result.stderr).toMatch(HINT);
    expect(result.stderr).not.toMatch(/createMemory|Pass apiKey|note:/);
  });

  it('the old name recall-video runs it, with a note naming the new command; the help lists only the new one', async () => {
    const home = tempDir('memoir-cli-from-recording-');
    const result = await memoir(home, 'recall-video', 'add an SSH key on GitHub');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^note: memoir recall-video is now memoir procedures from-recording \(recall-video still works for now\)\.$/m,
    );
    expect(result.stderr).toMatch(NO_PROVIDER);
    expect(result.stderr).toMatch(HINT);
    const help = await memoir(home, '--help');
    expect(help.stdout).not.toMatch(/recall-video/);
    const procedures = await memoir(home, 'procedures', '--help');
    expect(procedures.stdout).toMatch(/from-recording/);
  });
});
