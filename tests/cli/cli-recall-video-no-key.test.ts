import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { runMemoir as memoir } from '../integrations/mcp-harness.js';

// `memoir recall-video` with no MEMORIES_AI_API_KEY, through the real executable in a child
// process: as at the other doors, there is nothing to search and nothing cached, and the hint
// names the variable to set — in the CLI's terms, not the library's ("Pass apiKey",
// "createMemory({ video })").

describe('memoir recall-video without a Memories AI key', { timeout: 60_000 }, () => {
  it('fails naming MEMORIES_AI_API_KEY as the thing to set', async () => {
    const result = await memoir(tempDir('memoir-cli-recall-video-'), 'recall-video', 'add an SSH key on GitHub');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*no video provider/m);
    expect(result.stderr).toMatch(
      /^hint: Set MEMORIES_AI_API_KEY \(a Memories AI key\) so your screen recordings can be searched/m,
    );
    expect(result.stderr).not.toMatch(/createMemory|Pass apiKey/);
  });
});
