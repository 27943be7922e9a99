import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORES, tempDir } from '../helpers/stores.js';
import { workspaceClient } from '../helpers/workspace.js';

// The workspace: Peter lived in Vienna, signed a lease in Lisbon, then lives in Lisbon.
// Offline (no model), recall answers "now" with Lisbon and "before" with Vienna, the index
// links the two lines with both citations kept, a re-index links the same, and reflect's page
// shows the current value first and the history below it.
function peterWorkspace(): string {
  const root = join(tempDir('memoir-current-truth-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'memory.md'), '# Core memory\n\n- W @Peter: Peter owns this workspace.\n');
  const day = (date: string, lines: string[]) =>
    writeFileSync(join(root, 'memory', `${date}.md`), `# ${date}\n\n## Retain\n\n${lines.join('\n')}\n`);
  day('2025-11-03', ['- W @Peter: Lives in Vienna, works from home.', '- W @Andy: Andy lives in Graz.']);
  day('2025-11-18', ['- W @Peter: Signed a lease in Lisbon; moves there at the start of December 2025.']);
  day('2025-12-04', ['- W @Peter: Now lives in Lisbon; reminders in Lisbon time.']);
  return root;
}

describe.each(STORES)('current truth in a Markdown workspace (%s)', (_name, makeStore) => {
  it('ranks the Lisbon line first now, the Vienna line first for "before", and links them', async () => {
    const root = peterWorkspace();
    const memory = workspaceClient(root, { store: makeStore() });
    await memory.workspace.index();
    // The clock of workspaceClient is 2025-12-03; the Lisbon line is dated 2025-12-04.
    const now = await memory.recall('where does Peter live now', { asOf: '2025-12-05' });
    expect(now.results[0]!.citation).toBe('memory/2025-12-04.md#L5');
    const before = await memory.recall('where did Peter live before Lisbon', { k: 5 });
    expect(before.results[0]!.citation).toBe('memory/2025-11-03.md#L5');
    const vienna = before.results[0]!.memory;
    expect(vienna.supersededBy).not.toBeNull();
    const history = await memory.history(vienna.id);
    expect(history.versions.map((version) => version.memory.source?.file)).toEqual([
      'memory/2025-11-03.md',
      'memory/2025-12-04.md',
    ]);
    // Andy lives elsewhere: another subject, never superseded.
    const andy = (await memory.list()).find((item) => item.content.includes('Graz'))!;
    expect(andy.supersededBy).toBeNull();

    await memory.workspace.index({ rebuild: true });
    const again = await memory.history(vienna.id);
    expect(again.versions.map((version) => version.memory.id)).toEqual(history.versions.map((v) => v.memory.id));
    await memory.close();
  });

  it("reflect's entity page shows the current value first and the history below it", async () => {
    const root = peterWorkspace();
    const memory = workspaceClient(root, { store: makeStore() });
    // A clock after the Lisbon line, so the Lisbon fact is current.
    await memory.close();
    const later = workspaceClient(root, {
      store: makeStore(),
      clock: { now: () => Date.parse('2025-12-10T12:00:00Z') },
    });
    await later.reflect({ since: '2025-11-01' });
    const page = readFileSync(join(root, 'bank', 'entities', 'Peter.md'), 'utf8');
    const lisbon = page.indexOf('Now lives in Lisbon');
    const historyHeading = page.indexOf('### History');
    const vienna = page.indexOf('Lives in Vienna');
    expect(lisbon).toBeGreaterThan(0);
    expect(historyHeading).toBeGreaterThan(lisbon);
    expect(vienna).toBeGreaterThan(historyHeading);
    expect(page).toMatch(/2025-11-03 – 2025-12-04: (?:Peter: )?Lives in Vienna, works from home\. \(superseded\)/);
    await later.close();
  });
});
