import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFixedClock } from '../../src/testing/index.js';
import { STORES, tempDir } from '../helpers/stores.js';
import { workspaceClient } from '../helpers/workspace.js';

// Reflect proposes lines for memory.md and lists an entity's current facts. A stay, a trip or a
// contract stated as a range is not current once its last day is over, in any format the
// workspace parser reads; a version a newer fact replaced, or one invalidated, never is.

const NOW = Date.parse('2026-11-27T12:00:00Z');

// Lines dated in the reflect window, each stating a range that ended before NOW (or not).
const ENDED = [
  'W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy’s birthday.',
  'W @Peter: Staying at the Riad Yasmine Nov 3–9, 2026.',
  'W @Peter: On call 2026-10-01 to 2026-10-31 for the gateway.',
  'W @Peter: Renting the Lisbon flat 2026-06-01–2026-09-30.',
  'W @Peter: Skiing in Ischgl Dec 28–Jan 2, 2026 with Andy.',
  'W @Peter: Teaching the workshop Oct 5 until Oct 9, 2026.',
  'W @Peter: Working from Porto 2026-11-02/2026-11-20.',
];
const CURRENT = [
  'W @Peter: Peter is in Tokyo (Nov 20–Dec 20, 2026) for the conference season.',
  'W @Peter: Peter prefers green tea in the morning.',
  // One date is the day of an event, not a span that ended.
  'W @Peter: Peter bought the Castle UPS on Nov 17, 2025.',
];

function workspace(): string {
  const root = join(tempDir('memoir-reflect-current-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'memory.md'), '# Core memory\n\n- W @Peter: Peter owns this workspace.\n');
  const day = (date: string, lines: string[]) =>
    writeFileSync(
      join(root, 'memory', `${date}.md`),
      `# ${date}\n\n## Retain\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`,
    );
  day('2026-11-21', [...ENDED, ...CURRENT]);
  // A fact and the newer one that replaces it (same subject, same attribute).
  day('2026-11-22', ['W @Andy: Andy lives in Graz.']);
  day('2026-11-25', ['W @Andy: Andy now lives in Salzburg.']);
  day('2026-11-26', ['W @Andy: Andy drives a red bicycle to work.']);
  return root;
}

describe.each(STORES)('reflect proposes only what is current (%s)', (_name, makeStore) => {
  it('never proposes a stated range that ended, in any format the parser reads', async () => {
    const root = workspace();
    const memory = workspaceClient(root, { store: makeStore(), clock: createFixedClock(NOW) });
    const report = await memory.reflect({ since: '2025-01-01' });
    const proposed = report.coreProposals.lines.join('\n');
    for (const line of ENDED) expect(proposed).not.toContain(line.slice(line.indexOf(':') + 2, -1));
    for (const line of CURRENT) expect(proposed).toContain(line.slice(line.indexOf(':') + 2, -1));
    // The entity page keeps an ended stay, under History, with the day it ended.
    const page = readFileSync(join(root, 'bank', 'entities', 'Peter.md'), 'utf8');
    const history = page.slice(page.indexOf('### History'));
    expect(page.indexOf('### History')).toBeGreaterThan(0);
    expect(history).toContain('Currently in Marrakech (Nov 27–Dec 1, 2025)');
    expect(history).toContain('(ended 2025-12-01)');
    expect(page.slice(0, page.indexOf('### History'))).not.toContain('Marrakech');
    expect(page.slice(0, page.indexOf('### History'))).toContain('Tokyo');
    await memory.close();
  });

  it('never proposes a superseded or an invalidated fact as current', async () => {
    const root = workspace();
    const memory = workspaceClient(root, { store: makeStore(), clock: createFixedClock(NOW) });
    await memory.workspace.index();
    const bicycle = (await memory.list()).find((item) => item.content.includes('red bicycle'))!;
    await memory.invalidate(bicycle.id, 'Andy sold the bicycle');
    const report = await memory.reflect({ since: '2025-01-01' });
    const proposed = report.coreProposals.lines.join('\n');
    expect(proposed).toContain('Andy now lives in Salzburg');
    expect(proposed).not.toContain('Andy lives in Graz');
    expect(proposed).not.toContain('red bicycle');
    await memory.close();
  });

  it('the fixture workspace two days after the Marrakech stay proposes it no more', async () => {
    const root = workspace();
    const memory = workspaceClient(root, {
      store: makeStore(),
      clock: createFixedClock(Date.parse('2025-12-03T12:00:00Z')),
    });
    writeFileSync(
      join(root, 'memory', '2025-11-27.md'),
      '# 2025-11-27\n\n## Retain\n\n- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy’s birthday.\n',
    );
    const report = await memory.reflect();
    expect(report.coreProposals.lines.join('\n')).not.toContain('Marrakech');
    await memory.close();
  });
});
