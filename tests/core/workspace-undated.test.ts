import { appendFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureCopy, workspaceClient } from '../helpers/workspace.js';

// Pages without a date (memory.md, bank/*.md, any file not named by a day) are timeless for
// time filters: no window — `since`, `until`, a span a question names — holds their lines,
// whatever the files' modification times, and a recall without one still finds them. A line
// that states its date, or sits under a heading that states one, keeps that date. The
// client's clock is 2025-12-03 noon; every file of the copy was just written (and is touched
// to Nov 28 below, inside every window here), so a page dated by its mtime fails each check.

const contents = (memories: ReadonlyArray<{ content: string }>) => memories.map((memory) => memory.content).join('\n');

describe('undated workspace pages and time filters', () => {
  it('leaves undated lines out of every window, recalls them without one, and dates a line by its own date or heading', async () => {
    const root = fixtureCopy();
    appendFileSync(join(root, 'bank', 'world.md'), '- W @Peter: 2025-11-27 Peter moved the router to the attic.\n');
    appendFileSync(
      join(root, 'bank', 'experience.md'),
      '\n## 2025-11-29\n\n### Notes\n\n- B @warelay: Upgraded the Baileys library to 6.7.\n',
    );
    const touched = new Date('2025-11-28T10:00:00Z');
    for (const file of ['memory.md', 'bank/world.md', 'bank/experience.md', 'bank/opinions.md'])
      utimesSync(join(root, file), touched, touched);
    const memory = workspaceClient(root);
    await memory.workspace.index();

    // `since` (a span before now, as the CLI's --since 30d).
    const since = await memory.list({ since: '30d', limit: 500 });
    const sinceText = contents(since);
    expect(sinceText).not.toContain('lives in Vienna'); // memory.md
    expect(sinceText).not.toContain('Debian and ZFS'); // bank/world.md
    expect(sinceText).not.toContain('loses the pending queue'); // bank/experience.md
    expect(sinceText).toContain('router to the attic'); // its own date
    expect(sinceText).toContain('Upgraded the Baileys library'); // its heading's date, two levels up
    expect(since.find((item) => item.content.includes('router'))!.occurredAt).toBe('2025-11-27T00:00:00.000Z');
    expect(since.find((item) => item.content.includes('Upgraded'))!.occurredAt).toBe('2025-11-29T00:00:00.000Z');

    // `until` alone is a window too.
    const until = contents(await memory.list({ until: '2025-12-31', limit: 500 }));
    expect(until).not.toContain('lives in Vienna');
    expect(until).toContain('Baileys WS crash');

    // Recall with a window, and a span the question names.
    const windowed = await memory.recall('Peter Vienna Debian ZFS', { since: '30d', k: 20 });
    expect(contents(windowed.results.map((result) => result.memory))).not.toMatch(/lives in Vienna|Debian and ZFS/);
    // A question about Peter at a time: what falls in the span is lifted, and no undated line does.
    const around = await memory.recall('what did Peter do around Nov 28, 2025?', { k: 20 });
    expect(around.intent?.kind).toBe('temporal');
    const lifted = around.results
      .filter((result) => result.breakdown.boosts.some((boost) => boost.name === 'time'))
      .map((result) => result.citation);
    expect(lifted.length).toBeGreaterThan(0);
    const undatedLines = /^(memory\.md|bank\/opinions\.md|bank\/world\.md#L[34]$|bank\/experience\.md#L3$)/;
    expect(lifted.filter((citation) => undatedLines.test(citation))).toEqual([]);

    // Without a window they are found, marked undated.
    const plain = await memory.recall('Debian ZFS home server', { k: 3 });
    expect(plain.results[0]!.citation).toBe('bank/world.md#L4');
    expect(plain.results[0]!.memory.metadata.undated).toBe(true);
    await memory.close();
  });
});
